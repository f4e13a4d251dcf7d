import { execFileSync, spawn } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/** Starts `sleep` in the background, in the agent's process group, and writes its pid to the file. */
export function leaveGrandchild(pidFile: string): void {
  const child = spawn('sleep', ['300'], { stdio: 'ignore' });
  child.unref();
  writeFileSync(pidFile, String(child.pid));
}

/**
 * Leaves two sleeping daemons outside the process group — one through `setsid`, one the way
 * daemon() does it — and appends their pids to the file.
 */
export async function leaveDaemons(pidFile: string): Promise<void> {
  const before = existsSync(pidFile) ? readFileSync(pidFile, 'utf8').split('\n').filter(Boolean).length : 0;
  const session = spawn('setsid', ['sleep', '300'], { stdio: 'ignore' });
  session.unref();
  appendFileSync(pidFile, `${session.pid}\n`);
  // The outer shell backgrounds a new session and exits; that session backgrounds sleep and exits too.
  const daemon = `setsid sh -c 'nohup sleep 301 >/dev/null 2>&1 & echo $! >> "$1"' daemon "$0" &`;
  execFileSync('sh', ['-c', daemon, pidFile], { stdio: 'ignore' });
  // Both pids written, and both out of this group, before the agent goes on: only the marker can find them then.
  const own = groupOf(process.pid);
  for (let waited = 0; waited < 10_000; waited += 20) {
    const pids = readFileSync(pidFile, 'utf8').split('\n').filter(Boolean).slice(before).map(Number);
    if (pids.length >= 2 && pids.every((pid) => groupOf(pid) !== own)) return;
    await sleep(20);
  }
}

/** A process's group, from /proc/PID/stat (fields counted after the name's closing parenthesis). */
function groupOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2];
  } catch {
    return undefined;
  }
}
