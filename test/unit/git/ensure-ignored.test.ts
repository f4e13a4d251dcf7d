import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ensureIgnored } from '../../../src/git/repository.js';

const cleanup: string[] = [];
const PATHS = ['ralph/logs/', 'ralph/blocked.txt', 'ralph/state.json'];

async function repo(gitignore?: string) {
  const root = await mkdtemp(join(tmpdir(), 'ralph-ignore-'));
  cleanup.push(root);
  execFileSync('git', ['init', '-q'], { cwd: root });
  if (gitignore !== undefined) await writeFile(join(root, '.gitignore'), gitignore);
  return root;
}

const excluded = async (root: string) => (await readFile(join(root, '.git/info/exclude'), 'utf8')).split('\n').filter((line) => line.startsWith('/'));

afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('ensureIgnored', () => {
  it('adds every path that nothing ignores yet, once', async () => {
    const root = await repo();
    expect(await ensureIgnored(root, PATHS)).toEqual(PATHS);
    expect(await ensureIgnored(root, PATHS)).toEqual([]);
    expect(await excluded(root)).toEqual(['/ralph/logs/', '/ralph/blocked.txt', '/ralph/state.json']);
  });

  it('leaves alone what .gitignore already covers', async () => {
    const root = await repo('ralph/logs/\n*.json\n');
    expect(await ensureIgnored(root, PATHS)).toEqual(['ralph/blocked.txt']);
  });

  it('counts a path that a "!" pattern un-ignores as not ignored', async () => {
    const root = await repo('ralph/*\n!ralph/blocked.txt\n');
    expect(await ensureIgnored(root, PATHS)).toEqual(['ralph/blocked.txt']);
  });
});
