import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { execa } from 'execa';

/** A temporary git repository with one commit, for the start checks that read a real work tree. */
export async function tempRepo(): Promise<{
  root: string;
  git: (...args: string[]) => Promise<string>;
  write: (path: string, text: string) => Promise<void>;
  remove: () => Promise<void>;
}> {
  const root = await mkdtemp(join(tmpdir(), 'ralph-lifecycle-'));
  const git = async (...args: string[]) => (await execa('git', args, { cwd: root })).stdout;
  await git('init', '-q', '-b', 'main');
  await git('config', 'user.email', 'test@example.com');
  await git('config', 'user.name', 'test');
  const write = (path: string, text: string) => writeFile(join(root, path), text);
  await write('README.md', 'hello\n');
  await git('add', '-A');
  await git('commit', '-qm', 'first');
  return { root, git, write, remove: () => rm(root, { recursive: true, force: true }) };
}
