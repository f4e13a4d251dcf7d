import { setTimeout as sleep } from 'node:timers/promises';
import { KILL_GRACE_MS } from './process-group.js';
import { environHas, listPids, readProcEnviron, readProcStat } from './proc.js';

/** The variable that marks every process of a run: set in the agent's and each gate's environment. */
export const MARKER_VARIABLE = 'RALPH_RUN_MARKER';

/** A process ralph found carrying a marker, as the report names it. */
export interface MarkedProcess {
  pid: number;
  comm: string;
  /** Its start tick: a pid reused by another process between finding and signalling is left alone. */
  startTicks: string;
}

/** Which marker values count: one scope's exact value, or every scope of a run (a prefix). */
export type MarkerMatch = ({ exact: string } | { prefix: string }) & {
  /** Processes that started before this (clock ticks since boot) are not looked at: not the scope's. */
  sinceTicks?: number;
};

const POLL_MS = 25;
/** Rounds of find-and-end: a process may fork again while its parent is being ended. */
const MAX_ROUNDS = 5;

/**
 * How often the process list is read again for processes that started while it was being read:
 * one that forks its successor and exits between the listing and its turn leaves only a process
 * the listing has not got (a chain that re-forks every 50 ms, on a busy machine).
 */
const MAX_LISTINGS = 5;

/**
 * The running processes whose environment (as they were started with it, in /proc/PID/environ)
 * carries the marker, ralph itself excluded. Empty where there is no /proc (macOS).
 */
function findMarked(match: MarkerMatch, belongs: (pid: number) => boolean = () => true): MarkedProcess[] {
  const [entry, exact] =
    'exact' in match ? [`${MARKER_VARIABLE}=${match.exact}`, true] : [`${MARKER_VARIABLE}=${match.prefix}`, false];
  const found: MarkedProcess[] = [];
  const looked = new Set<number>([process.pid]);
  for (let listing = 0; listing < MAX_LISTINGS; listing++) {
    const fresh = listPids().filter((pid) => !looked.has(pid));
    if (fresh.length === 0) break;
    for (const pid of fresh) {
      looked.add(pid);
      // The small stat first: a process older than the scope is skipped before its environment is read.
      const stat = readProcStat(pid);
      if (!stat || stat.state === 'Z') continue;
      if (match.sinceTicks !== undefined && Number(stat.startTicks) < match.sinceTicks) continue;
      const environ = readProcEnviron(pid);
      if (environ && environHas(environ, entry, exact) && belongs(pid))
        found.push({ pid, comm: stat.comm, startTicks: stat.startTicks });
    }
  }
  return found;
}

/** Whether this very process (same pid, same start) is still running. */
function isSame(process: MarkedProcess): boolean {
  const stat = readProcStat(process.pid);
  return stat !== undefined && stat.state !== 'Z' && stat.startTicks === process.startTicks;
}

function signal(target: MarkedProcess, name: NodeJS.Signals): void {
  if (!isSame(target)) return;
  try {
    process.kill(target.pid, name);
  } catch {
    // Gone in the meantime, or not ours to signal.
  }
}

/**
 * Ends every process carrying the marker: SIGTERM, then SIGKILL for those still running after
 * the grace period (or at once when `force` fires). Looks again afterwards, since a daemon may
 * fork while it is being ended. Returns what it ended (or tried to: a process of another user
 * cannot be signalled).
 */
export async function endMarked(
  match: MarkerMatch,
  {
    graceMs = KILL_GRACE_MS,
    force,
    belongs,
  }: {
    graceMs?: number;
    force?: AbortSignal;
    /** A further proof a marked process must give to be ended (a stale run's: its working directory). */
    belongs?: (pid: number) => boolean;
  } = {},
): Promise<MarkedProcess[]> {
  const ended: MarkedProcess[] = [];
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const found = findMarked(match, belongs);
    if (found.length === 0) break;
    ended.push(
      ...found.filter(
        (process) => !ended.some((seen) => seen.pid === process.pid && seen.startTicks === process.startTicks),
      ),
    );
    for (const target of found) signal(target, 'SIGTERM');
    const deadline = Date.now() + graceMs;
    while (found.some(isSame) && Date.now() < deadline && !force?.aborted) await sleep(POLL_MS);
    for (const target of found) signal(target, 'SIGKILL');
    const killDeadline = Date.now() + 2000;
    while (found.some(isSame) && Date.now() < killDeadline) await sleep(POLL_MS);
  }
  return ended;
}

/** SIGKILL to every marked process at once, without waiting: for ralph's own last moments. */
export function killMarkedNow(match: MarkerMatch): void {
  for (const target of findMarked(match)) signal(target, 'SIGKILL');
}

/** `ended 2 processes that left the agent's group: 123 sleep, 456 node` (`which` is "that left the agent's group"). */
export function describeEnded(ended: readonly MarkedProcess[], which: string): string {
  const list = ended.map((process) => `${process.pid} ${process.comm}`).join(', ');
  return `ended ${ended.length} process${ended.length === 1 ? '' : 'es'} ${which}: ${list}`;
}

/** What matches every process of a run, whichever scope: for ending what a crashed run left. */
export function runMatch(runId: string): { prefix: string } {
  return { prefix: `${runId}:` };
}
