import { readlinkSync } from 'node:fs';
import { sep } from 'node:path';
import { cgroupOfRun, emptyCgroup, repoHash } from './cgroup.js';
import { endMarked, MARKER_VARIABLE, runMatch, type MarkedProcess } from './marked-processes.js';
import { groupMembers, isGroupAlive, terminateGroup } from './process-group.js';
import { environHas, hasProc, processStartTime, readProcEnviron, readProcStat } from './proc.js';

/** What a stale lock says about the run that wrote it, and where ralph found it. */
export interface RunTraces {
  /** The run id in its processes' RALPH_RUN_MARKER (absent: an older ralph). */
  marker?: string;
  /** The process group of the agent it was running. */
  agentGroup?: number;
  /** When that run started (ISO). */
  startedAt: string;
  /** The work tree (real path) whose lock this was: only processes working inside it are that run's. */
  root: string;
  /** The repository identity its runs' cgroups are named from (Containment.open's): only its cgroup is that run's. */
  identity: string;
}

/**
 * Ends what a run that died without cleaning up (kill -9, the OOM killer) left running: every
 * process carrying its marker, and its agent's process group — but only what is provably that
 * run's: its marker AND a working directory inside this work tree (a lock is a file the agent can
 * forge, naming another repository's run), and the group only while it is still that run's (a
 * group id is reused once its processes are gone). Returns what it ended.
 */
export async function endRunRemains(run: RunTraces): Promise<MarkedProcess[]> {
  const belongs = (pid: number) => worksInside(pid, run.root);
  const group = run.agentGroup !== undefined && isTheRunsGroup(run.agentGroup, run) ? run.agentGroup : undefined;
  // Its cgroup first (whatever its processes did to their environment), then the marker.
  const cgroup = run.marker ? cgroupOfRun(repoHash(run.identity), run.marker) : undefined;
  const ended = [
    ...(cgroup ? await emptyCgroup(cgroup) : []),
    ...(run.marker ? await endMarked(runMatch(run.marker), { belongs }) : []),
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

/** Groups never ended as a stale run's: init's, ralph's own, its parent's (a forged lock names them). */
function isProtectedGroup(pgid: number): boolean {
  if (pgid <= 1 || pgid === process.pid || pgid === process.ppid) return true;
  return hasProc() && [process.pid, process.ppid].some((pid) => readProcStat(pid)?.pgrp === pgid);
}

/**
 * Whether a process works inside the work tree (/proc/PID/cwd). A cgroup, once runs have their own
 * (src/process/containment.ts), is the stronger proof and belongs here beside this one.
 */
export function worksInside(pid: number, root: string): boolean {
  try {
    const cwd = readlinkSync(`/proc/${pid}/cwd`);
    return cwd === root || cwd.startsWith(root.endsWith(sep) ? root : `${root}${sep}`);
  } catch {
    return false;
  }
}

/**
 * Whether the group is still the one the run recorded. With /proc: one of its processes carries
 * the run's marker and works inside the work tree. Without (macOS): its leader started no earlier
 * than the run (to the second).
 */
function isTheRunsGroup(pgid: number, run: RunTraces): boolean {
  if (isProtectedGroup(pgid)) return false;
  if (hasProc()) {
    const entry = `${MARKER_VARIABLE}=${run.marker ?? ''}:`;
    return (
      run.marker !== undefined &&
      groupMembers(pgid).some((pid) => {
        const environ = readProcEnviron(pid);
        return environ !== undefined && environHas(environ, entry, false) && worksInside(pid, run.root);
      })
    );
  }
  const started = Date.parse(run.startedAt);
  // `ps -o lstart=`, to the second; synchronous, as this runs in the exit handler.
  const leader = Date.parse(processStartTime(pgid) ?? '');
  return Number.isFinite(started) && Number.isFinite(leader) && leader >= started - 1000;
}
