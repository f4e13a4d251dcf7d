import { readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

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
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true; // No /proc (not Linux): the signal test is all we have.
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readProcStat(entry);
    if (stat && stat.pgrp === pgid && stat.state !== 'Z') return true;
  }
  return false;
}

/** State and process group from /proc/PID/stat (the name in parentheses may hold anything). */
function readProcStat(pid: string): { state: string; pgrp: number } | undefined {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', pgrp: Number(fields[2]) };
  } catch {
    return undefined;
  }
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
