import { setTimeout as sleep } from 'node:timers/promises';
import { hasProc, listPids, readProcStat } from './proc.js';

/** How long a process group gets between SIGTERM and SIGKILL. */
export const KILL_GRACE_MS = 5000;
const POLL_MS = 25;

/** Sends a signal to every process in a group; false when the group is already gone. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): boolean {
  try {
    // A negative pid addresses the whole process group: the agent and everything it started.
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether any process of the group is still running. Zombies do not count: they are dead,
 * and a container's init may take a second or more to reap them.
 */
export function isGroupAlive(pgid: number): boolean {
  if (!signalGroup(pgid, 0 as unknown as NodeJS.Signals)) return false;
  // No /proc (not Linux): the signal test is all we have.
  if (!hasProc()) return true;
  return groupMembers(pgid).length > 0;
}

/** The live (not zombie) processes of a group, from /proc; empty where there is no /proc. */
export function groupMembers(pgid: number): number[] {
  return listPids().filter((pid) => {
    const stat = readProcStat(pid);
    return stat !== undefined && stat.pgrp === pgid && stat.state !== 'Z';
  });
}

/**
 * Ends a process group: SIGTERM, then SIGKILL once the grace period is over or `force`
 * fires (a second Ctrl-C). Resolves when no process of the group is left.
 */
export async function terminateGroup(
  pgid: number,
  { graceMs = KILL_GRACE_MS, force }: { graceMs?: number; force?: AbortSignal } = {},
): Promise<void> {
  if (!signalGroup(pgid, 'SIGTERM')) return;
  const deadline = Date.now() + graceMs;
  while (isGroupAlive(pgid)) {
    if (Date.now() >= deadline || force?.aborted) {
      signalGroup(pgid, 'SIGKILL');
      await waitForGroupExit(pgid, 2000);
      return;
    }
    await sleep(POLL_MS);
  }
}

/** Waits until the group is gone or the time is up. */
async function waitForGroupExit(pgid: number, limitMs: number): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (isGroupAlive(pgid) && Date.now() < deadline) await sleep(POLL_MS);
}
