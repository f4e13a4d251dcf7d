import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RalphError } from '../../../src/errors.js';
import { uncommittedChanges } from '../../../src/git/work-tree.js';
import { checkWorkTree } from '../../../src/run-lifecycle/work-tree-guard.js';
import { tempRepo } from './git-repo.js';

const repos: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const remove of repos.splice(0)) await remove();
});
async function repo() {
  const made = await tempRepo();
  repos.push(made.remove);
  return made;
}
async function refusal(promise: Promise<unknown>): Promise<RalphError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(RalphError);
  return error as RalphError;
}

describe('checkWorkTree', () => {
  it('accepts a clean work tree, and changes inside ralph/', async () => {
    const { root, write } = await repo();
    await mkdir(join(root, 'ralph'));
    await write('ralph/progress.txt', 'notes\n');
    await expect(checkWorkTree(root, { allowDirty: false, leftBehind: {} })).resolves.toBeUndefined();
  });

  it("refuses a person's uncommitted change, naming it and --allow-dirty", async () => {
    const { root, write } = await repo();
    await write('README.md', 'edited\n');
    const error = await refusal(checkWorkTree(root, { allowDirty: false, leftBehind: {} }));
    expect(error.kind).toBe('setup');
    expect(error.message).toContain('README.md');
    expect(error.hint).toContain('--allow-dirty');
  });

  it('lists ten paths, then says how many more', async () => {
    const { root, write } = await repo();
    for (let n = 0; n < 12; n++) await write(`file-${String(n).padStart(2, '0')}.txt`, `${n}\n`);
    const error = await refusal(checkWorkTree(root, { allowDirty: false, leftBehind: {} }));
    expect(error.message).toMatch(/ and 2 more$/);
  });

  it('accepts what the previous run left behind, but not a change made since', async () => {
    const { root, write } = await repo();
    await write('README.md', 'left by the agent\n');
    const leftBehind = await uncommittedChanges(root);
    await expect(checkWorkTree(root, { allowDirty: false, leftBehind })).resolves.toBeUndefined();
    await write('README.md', 'then edited by a person\n');
    await refusal(checkWorkTree(root, { allowDirty: false, leftBehind }));
  });

  it('--allow-dirty accepts changes, but never a merge half done', async () => {
    const { root, git, write } = await repo();
    await write('README.md', 'dirty\n');
    await expect(checkWorkTree(root, { allowDirty: true, leftBehind: {} })).resolves.toBeUndefined();
    await git('checkout', '-q', '--', 'README.md');
    await git('checkout', '-qb', 'other');
    await write('README.md', 'other side\n');
    await git('commit', '-qam', 'other');
    await git('checkout', '-q', 'main');
    await write('README.md', 'main side\n');
    await git('commit', '-qam', 'main');
    await git('merge', 'other').catch(() => undefined);
    const error = await refusal(checkWorkTree(root, { allowDirty: true, leftBehind: {} }));
    expect(error.kind).toBe('setup');
    expect(error.hint).toMatch(/then run again$/);
  });
});
