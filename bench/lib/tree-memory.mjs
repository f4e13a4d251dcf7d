// The peak memory of a whole process tree: every 50 ms, the resident sets of the process and of
// every descendant (found by their parent pids in /proc, which a new session does not hide) are
// summed. GNU time reports only the largest single process; many loops at once are many processes.
import { readdirSync, readFileSync } from 'node:fs';

/** The summed VmRSS (kB) of `root` and its descendants now; 0 where /proc cannot be read. */
function treeRssKb(/** @type {number} */ root) {
  /** @type {Map<number, number[]>} */
  const children = new Map();
  /** @type {Map<number, number>} */
  const rss = new Map();
  let entries;
  try {
    entries = readdirSync('/proc');
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const ppid = Number(/^PPid:\s+(\d+)/m.exec(status)?.[1]);
      const kb = Number(/^VmRSS:\s+(\d+)/m.exec(status)?.[1] ?? 0);
      rss.set(Number(entry), kb);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(entry)]);
    } catch {
      // Gone between the listing and the read.
    }
  }
  let total = 0;
  const stack = [root];
  while (stack.length > 0) {
    const pid = /** @type {number} */ (stack.pop());
    total += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

/** Samples the tree under `pid` until stopped; `stop()` returns the peak in MB (undefined off Linux). */
export function watchTreeMemory(/** @type {number} */ pid) {
  let peakKb = 0;
  const timer = setInterval(() => (peakKb = Math.max(peakKb, treeRssKb(pid))), 50);
  return {
    stop() {
      clearInterval(timer);
      return peakKb > 0 ? peakKb / 1024 : undefined;
    },
  };
}
