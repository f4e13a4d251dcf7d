import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { isErrno, RalphError } from '../errors.js';

/**
 * Refuses to start in a current directory that was deleted (or moved) after the shell entered it:
 * every command finds its repository from there, and the OS's ENOENT would otherwise surface as a
 * missing file of ralph's, or a missing agent. The shell's `PWD` names the folder when it is the
 * one that is gone.
 */
export function requireWorkingDirectory(env: NodeJS.ProcessEnv = process.env): void {
  if (currentDirectory() === undefined) {
    const pwd = env.PWD;
    const named = pwd && isAbsolute(pwd) && !existsSync(pwd) ? ` ${pwd}` : '';
    throw new RalphError(
      'setup',
      `the current directory${named} no longer exists (deleted or moved since this shell entered it)`,
      'cd into the repository by its path, then run again',
    );
  }
}

/** The current directory, or undefined when it no longer exists. */
export function currentDirectory(): string | undefined {
  try {
    return process.cwd();
  } catch (error) {
    if (isErrno(error, 'ENOENT')) return undefined;
    throw error;
  }
}
