import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Where one run of the gates writes: a log per gate and the blocking event. */
export interface GateFiles {
  logPaths: string[];
  eventPath: string;
}

/**
 * Names the files of one run of the gates in `logsDir`: `gates-007-tests.log` per gate and
 * `gates-007.json`. A second run with the same iteration number (the start-of-run check shares
 * the number of the iteration about to start) gets `gates-007.2-tests.log`, and so on, so no
 * earlier run's files are overwritten.
 */
export async function gateFiles(logsDir: string, iteration: number, gateNames: readonly string[]): Promise<GateFiles> {
  await mkdir(logsDir, { recursive: true });
  const existing = await readdir(logsDir);
  const padded = String(iteration).padStart(3, '0');
  let base = `gates-${padded}`;
  for (
    let attempt = 2;
    existing.some((entry) => entry === `${base}.json` || entry.startsWith(`${base}-`));
    attempt += 1
  ) {
    base = `gates-${padded}.${attempt}`;
  }
  const used = new Set<string>();
  const logPaths = gateNames.map((name) => {
    const safe = fileSafeName(name);
    let unique = safe;
    for (let n = 2; used.has(unique); n += 1) unique = `${safe}-${n}`;
    used.add(unique);
    return join(logsDir, `${base}-${unique}.log`);
  });
  return { logPaths, eventPath: join(logsDir, `${base}.json`) };
}

/** A gate name as part of a file name: letters, digits, `.`, `_` and `-` only, not hidden, not too long. */
export function fileSafeName(name: string): string {
  const safe = name
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[.-]+/, '')
    .slice(0, 60);
  return safe === '' ? 'gate' : safe;
}
