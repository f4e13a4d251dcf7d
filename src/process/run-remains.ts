import { cgroupOfRun, emptyCgroup } from './cgroup.js';
import { runMatch } from './containment.js';
import { endMarked, MARKER_VARIABLE, type MarkedProcess } from './marked-processes.js';
import { groupMembers, isGroupAlive, terminateGroup } from './process-group.js';
import { environHas, hasProc, processStartTime, readProcEnviron, readProcStat } from './proc.js';

/** What a stale lock says about the run that wrote it. */
export interface RunTraces {
  /** The run id in its processes' RALPH_RUN_MARKER (absent: an older ralph). */
  marker?: string;
  /** The process group of the agent it was running. */
  agentGroup?: number;
  /** When that run started (ISO). */
  startedAt: string;
}

/**
 * Ends what a run that died without cleaning up (kill -9, the OOM killer) left running: every
 * process carrying its marker, and its agent's process group — but the group only when it is
 * provably still that run's (a group id is reused once its processes are gone). Returns what it ended.
 */
export async function endRunRemains(run: RunTraces): Promise<MarkedProcess[]> {
  const group = run.agentGroup !== undefined && isTheRunsGroup(run.agentGroup, run) ? run.agentGroup : undefined;
  // Its cgroup first (whatever its processes did to their environment), then the marker.
  const cgroup = run.marker ? cgroupOfRun(run.marker) : undefined;
  const ended = [
    ...(cgroup ? await emptyCgroup(cgroup) : []),
    ...(run.marker ? await endMarked(runMatch(run.marker)) : []),
  ];
  if (group === undefined || !isGroupAlive(group)) return ended;
  // What is left of the group did not carry the marker (a process started with `env -i`).
  const rest = groupMembers(group).flatMap((pid) => {
    const stat = readProcStat(pid);
    return stat ? [{ pid, comm: stat.comm, startTicks: stat.startTicks }] : [];
  });
  await terminateGroup(group);
  return [...ended, ...(hasProc() ? rest : [{ pid: group, comm: `process group ${group}`, startTicks: '' }])];
}

/**
 * Whether the group is still the one the run recorded. With /proc: one of its processes carries
 * the run's marker. Without (macOS): its leader started no earlier than the run (to the second).
 */
function isTheRunsGroup(pgid: number, run: RunTraces): boolean {
  if (hasProc()) {
    const entry = `${MARKER_VARIABLE}=${run.marker ?? ''}:`;
    return (
      run.marker !== undefined &&
      groupMembers(pgid).some((pid) => {
        const environ = readProcEnviron(pid);
        return environ !== undefined && environHas(environ, entry, false);
      })
    );
  }
  const started = Date.parse(run.startedAt);
  // `ps -o lstart=`, to the second; synchronous, as this runs in the exit handler.
  const leader = Date.parse(processStartTime(pgid) ?? '');
  return Number.isFinite(started) && Number.isFinite(leader) && leader >= started - 1000;
}
