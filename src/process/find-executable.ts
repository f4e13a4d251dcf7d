import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';

/**
 * The absolute path of an executable: a name is looked up on PATH, a path (anything with a
 * slash) is taken relative to `cwd`. Undefined when there is no such executable file.
 */
export function findExecutable(
  name: string,
  cwd: string,
  pathVariable = process.env.PATH ?? '',
): Promise<string | undefined> {
  return Promise.resolve(lookUp(name, cwd, pathVariable));
}

/** The same lookup, synchronous: for choices made before anything runs. */
export function lookUp(name: string, cwd: string, pathVariable: string): string | undefined {
  const candidates = name.includes('/')
    ? [resolve(cwd, name)]
    : pathVariable
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(resolve(cwd, dir), name));
  for (const candidate of candidates) {
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

/** Synchronous: the lookup runs before every agent, and each PATH entry would be two thread-pool round trips. */
function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
