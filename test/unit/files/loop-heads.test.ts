import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LOOP_HEADS_FILE, nextLoopHead, readLoopHeads, recordLoopHead } from '../../../src/files/loop-heads.js';

const A = 'a'.repeat(40);
const B = 'b'.repeat(40);
const C = 'c'.repeat(40);

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A record folder as recordDir names one: ralph/ under a git dir. */
async function records(): Promise<string> {
  const gitDir = await mkdtemp(join(tmpdir(), 'ralph-loop-heads-'));
  made.push(gitDir);
  return join(gitDir, 'ralph');
}

describe('nextLoopHead', () => {
  it('starts the record with the first move, and carries it on from where it stands', () => {
    expect(nextLoopHead(undefined, { branch: 'ralph/a', from: A, to: B })).toBe(B);
    expect(nextLoopHead(B, { branch: 'ralph/a', from: B, to: C })).toBe(C);
  });

  it('keeps the record before a gap: commits the loop never saw between its head and the move', () => {
    expect(nextLoopHead(A, { branch: 'ralph/a', from: B, to: C })).toBeUndefined();
  });

  it('records nothing for a detached HEAD or a move that is none', () => {
    expect(nextLoopHead(undefined, { branch: null, from: A, to: B })).toBeUndefined();
    expect(nextLoopHead(A, { branch: 'ralph/a', from: A, to: A })).toBeUndefined();
  });
});

describe('recordLoopHead', () => {
  it('writes the heads by branch, and reads them back', async () => {
    const dir = await records();
    expect(await readLoopHeads(dir)).toEqual({ state: 'none' });
    await recordLoopHead(dir, { branch: 'ralph/a', from: null, to: A });
    await recordLoopHead(dir, { branch: 'ralph/b', from: A, to: B });
    await recordLoopHead(dir, { branch: 'ralph/a', from: A, to: C });
    expect(await readLoopHeads(dir)).toEqual({ state: 'read', heads: { 'ralph/a': C, 'ralph/b': B } });
  });

  it('appends one line a move, and compacts a record an older ralph wrote over several lines', async () => {
    const dir = await records();
    await mkdir(dir, { recursive: true });
    const path = join(dir, LOOP_HEADS_FILE);
    await writeFile(path, `${JSON.stringify({ version: 1, heads: { 'ralph/b': B } }, null, 2)}\n`);
    let known = await recordLoopHead(dir, { branch: 'ralph/a', from: null, to: A });
    expect(await readFile(path, 'utf8')).toBe(`{"version":1,"heads":{"ralph/b":"${B}","ralph/a":"${A}"}}\n`);
    known = await recordLoopHead(dir, { branch: 'ralph/a', from: A, to: C }, known);
    expect((await readFile(path, 'utf8')).split('\n')).toHaveLength(3);
    expect(known).toEqual({ 'ralph/a': C, 'ralph/b': B });
    expect(await readLoopHeads(dir)).toEqual({ state: 'read', heads: { 'ralph/a': C, 'ralph/b': B } });
  });

  it('leaves a damaged record as it is, for integrate to name', async () => {
    const dir = await records();
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, LOOP_HEADS_FILE), '{"version":1,"heads":{"ralph/a":"not a hash"}}');
    await recordLoopHead(dir, { branch: 'ralph/a', from: null, to: A });
    expect(await readLoopHeads(dir)).toMatchObject({ state: 'damaged' });
    expect(await readFile(join(dir, LOOP_HEADS_FILE), 'utf8')).toContain('not a hash');
  });
});
