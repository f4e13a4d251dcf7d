import { open, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { foreignChanges, uncommittedChanges } from '../../../src/git/work-tree.js';
import { realRepository } from './real-repository.js';

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function repository() {
  const repo = await realRepository('ralph-work-tree-hash-');
  made.push(repo.root);
  await writeFile(join(repo.root, 'README.md'), 'hi\n');
  repo.git('add', '-A');
  repo.git('commit', '-q', '-m', 'init');
  return repo;
}

/** Writes `text` at `position` of the file, as an editor or a script of the person's would. */
async function writeAt(path: string, position: number, text: string): Promise<void> {
  const handle = await open(path, 'r+');
  try {
    await handle.write(text, position);
  } finally {
    await handle.close();
  }
}

describe('the uncommitted files’ hashes, which tell the next start what changed since', () => {
  it('never reads a huge file whole, yet sees a write in its middle', async () => {
    const { root } = await repository();
    const huge = join(root, 'huge.bin');
    // Sparse: 1 TiB for free, as the agent can leave it; read whole, it would take hours.
    await writeFile(huge, '');
    await truncate(huge, 2 ** 40);
    const left = await uncommittedChanges(root);
    expect(Object.keys(left)).toEqual(['huge.bin']);
    expect(foreignChanges(await uncommittedChanges(root), left)).toEqual([]);
    // Far from both ends: only the file's identity (its ctime) can tell.
    await writeAt(huge, 2 ** 39, 'x');
    expect(foreignChanges(await uncommittedChanges(root), left)).toEqual(['huge.bin']);
  });

  it('hashes a small file by its content: the same bytes written again are no change', async () => {
    const { root } = await repository();
    const small = join(root, 'notes.txt');
    await writeFile(small, 'one\n');
    const left = await uncommittedChanges(root);
    await writeFile(small, 'one\n');
    expect(foreignChanges(await uncommittedChanges(root), left)).toEqual([]);
    await writeFile(small, 'two\n');
    expect(foreignChanges(await uncommittedChanges(root), left)).toEqual(['notes.txt']);
  });
});
