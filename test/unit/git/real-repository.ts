import { execFileSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A real, empty repository on `main` in a temporary folder, and a way to run git in it. */
export async function realRepository(prefix: string, initArgs: readonly string[] = []) {
  const root = await mkdtemp(join(tmpdir(), prefix));
  const env = {
    ...process.env,
    GIT_AUTHOR_NAME: 't',
    GIT_AUTHOR_EMAIL: 't@t.invalid',
    GIT_COMMITTER_NAME: 't',
    GIT_COMMITTER_EMAIL: 't@t.invalid',
    GIT_CONFIG_NOSYSTEM: '1',
  };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, env, encoding: 'utf8' }).trim();
  git('init', '-q', '-b', 'main', ...initArgs);
  return { root, git };
}
