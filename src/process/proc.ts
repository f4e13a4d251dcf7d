// eslint-disable-next-line no-restricted-imports -- on the Stop hook's path, where loading execa costs ~160 ms: see processStartTime
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/** What ralph reads of a process in /proc/PID/stat. */
export interface ProcStat {
  /** The command name (at most 15 bytes; it may hold spaces and parentheses). */
  comm: string;
  /** R, S, D, Z, T, …; Z is a zombie: dead, waiting to be reaped. */
  state: string;
  pgrp: number;
  /** When it started, in clock ticks since boot (field 22). */
  startTicks: string;
}

/** Whether this system has a Linux-style /proc (Linux: yes; macOS: no). */
export function hasProc(): boolean {
  procAvailable ??= (() => {
    try {
      readdirSync('/proc/self');
      return true;
    } catch {
      return false;
    }
  })();
  return procAvailable;
}

let procAvailable: boolean | undefined;

/** The pids in /proc; empty where there is no /proc. */
export function listPids(): number[] {
  try {
    return readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .map(Number);
  } catch {
    return [];
  }
}

/**
 * Parses /proc/PID/stat. The name sits in parentheses and may itself contain `) (` or spaces,
 * so the fields are counted from the LAST `)`: state is field 3, pgrp 5, starttime 22.
 */
export function parseProcStat(text: string): ProcStat | undefined {
  const open = text.indexOf('(');
  const close = text.lastIndexOf(')');
  if (open === -1 || close < open) return undefined;
  const fields = text
    .slice(close + 2)
    .trim()
    .split(' ');
  const startTicks = fields[22 - 3];
  if (fields.length < 20 || startTicks === undefined || !/^\d+$/.test(startTicks)) return undefined;
  return { comm: text.slice(open + 1, close), state: fields[0] ?? '', pgrp: Number(fields[5 - 3]), startTicks };
}

/** /proc/PID/stat of a process, or undefined when it is gone (or there is no /proc). */
export function readProcStat(pid: number): ProcStat | undefined {
  try {
    return parseProcStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The environment a process was started with, raw (NUL-separated NAME=value); undefined when unreadable. */
export function readProcEnviron(pid: number): Buffer | undefined {
  try {
    return readFileSync(`/proc/${pid}/environ`);
  } catch {
    return undefined;
  }
}

/** Whether a raw environment holds a variable whose `NAME=value` text starts with `entry` (or is exactly it). */
export function environHas(environ: Buffer, entry: string, exact: boolean): boolean {
  const needle = Buffer.from(exact ? `${entry}\0` : entry, 'latin1');
  for (let at = environ.indexOf(needle); at !== -1; at = environ.indexOf(needle, at + 1)) {
    if (at === 0 || environ[at - 1] === 0) return true;
  }
  return false;
}

/** Clock ticks per second in /proc (USER_HZ): 100 on every Linux architecture ralph runs on. */
const USER_HZ = 100;

/**
 * Now, in the clock ticks since boot that /proc/PID/stat's start time counts, less a second (the
 * two clocks round differently, and the marker is unique to its scope anyway); undefined without /proc.
 */
export function bootTicksNow(): number | undefined {
  try {
    const uptime = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0]);
    return Number.isFinite(uptime) ? Math.floor(uptime * USER_HZ) - USER_HZ : undefined;
  } catch {
    return undefined;
  }
}

let bootId: string | undefined;

/** This boot's id: a pid and start tick pair recurs after a reboot, with another boot id. */
function currentBootId(): string {
  bootId ??= (() => {
    try {
      return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    } catch {
      return 'unknown-boot';
    }
  })();
  return bootId;
}

/**
 * What tells a running process apart from an earlier one that had the same pid: on Linux its
 * start tick and the boot (`<ticks>@<boot id>`), elsewhere `ps -o lstart=` (to the second).
 * Undefined when no such process is running (a zombie is not running).
 */
export function processStartTime(pid: number): string | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  if (hasProc()) {
    const stat = readProcStat(pid);
    return stat && stat.state !== 'Z' ? `${stat.startTicks}@${currentBootId()}` : undefined;
  }
  // node's execFileSync: synchronous (the lock's owner is read while the lock is written, and at
  // exit), and the Stop hook checks the lock's owner, so execa here would load on every hook start.
  try {
    const text = execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
    });
    return text.trim() || undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the process that had this pid and start time still runs. Seen from outside a pid
 * namespace (a container sharing the host name, `unshare -p`), its pid here is another one:
 * then it is the process whose innermost pid (the last of `NSpid` in /proc/PID/status) matches.
 */
export function isProcessRunning(pid: number, startTime: string): boolean {
  if (processStartTime(pid) === startTime) return true;
  if (!hasProc()) return false;
  const [ticks, boot] = startTime.split('@');
  if (boot !== currentBootId()) return false;
  return listPids().some((candidate) => {
    const stat = candidate === pid ? undefined : readProcStat(candidate);
    return stat !== undefined && stat.startTicks === ticks && stat.state !== 'Z' && innermostPid(candidate) === pid;
  });
}

/** A process's pid in its own (innermost) pid namespace. */
function innermostPid(pid: number): number | undefined {
  try {
    const line = /^NSpid:\s*(.+)$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return line === undefined ? undefined : Number(line.trim().split(/\s+/).at(-1));
  } catch {
    return undefined;
  }
}
