import { access, constants, stat } from 'node:fs/promises';
import { delimiter, join, resolve } from 'node:path';

/**
 * The absolute path of an executable: a name is looked up on PATH, a path (anything with a
 * slash) is taken relative to `cwd`. Undefined when there is no such executable file.
 */
export async function findExecutable(
  name: string,
  cwd: string,
  pathVariable = process.env.PATH ?? '',
): Promise<string | undefined> {
  const candidates = name.includes('/')
    ? [resolve(cwd, name)]
    : pathVariable
        .split(delimiter)
        .filter(Boolean)
        .map((dir) => join(resolve(cwd, dir), name));
  for (const candidate of candidates) {
    if (await isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}
