import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { filesBlockingSwitch, planBranchSwitch, switchToBranch } from '../../../src/git/branch.js';
import { realRepository } from './real-repository.js';

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** main with notes.txt; `feature` with notes.txt changed and added.txt added; back on main. */
async function twoBranches() {
  const repo = await realRepository('ralph-branch-switch-');
  made.push(repo.root);
  const write = (path: string, text: string) => writeFile(join(repo.root, path), text);
  await write('notes.txt', 'main\n');
  await write('same.txt', 'same\n');
  repo.git('add', '-A');
  repo.git('commit', '-qm', 'main');
  repo.git('switch', '-qc', 'feature');
  await write('notes.txt', 'feature\n');
  await write('added.txt', 'feature\n');
  repo.git('add', '-A');
  repo.git('commit', '-qm', 'feature');
  repo.git('switch', '-q', 'main');
  return { ...repo, write };
}

describe('filesBlockingSwitch', () => {
  it('names what git refuses to overwrite: a change or an untracked file where the branch differs', async () => {
    const { root, write } = await twoBranches();
    expect(await filesBlockingSwitch(root, 'feature')).toEqual([]);
    await write('same.txt', 'my edit\n');
    // same.txt is the same on both branches: git carries the edit over.
    expect(await filesBlockingSwitch(root, 'feature')).toEqual([]);
    await write('notes.txt', 'my edit\n');
    await write('added.txt', 'mine, untracked\n');
    expect((await filesBlockingSwitch(root, 'feature')).sort()).toEqual(['added.txt', 'notes.txt']);
  });

  it('sees through a rename on the branch and a tag of the same name, as git does', async () => {
    const { root, git, write } = await twoBranches();
    git('switch', '-q', 'feature');
    git('mv', 'same.txt', 'moved.txt');
    git('commit', '-qm', 'rename');
    git('switch', '-q', 'main');
    git('tag', 'feature', 'main');
    await write('same.txt', 'my edit\n');
    expect(await filesBlockingSwitch(root, 'feature')).toEqual(['same.txt']);
    const refused = await switchToBranch(root, 'feature', 'ralph/tasks.json').catch((error: unknown) => error);
    expect(refused).toMatchObject({ message: expect.stringMatching(/^cannot switch to branch feature: /) });
  });

  it('counts every tracked path against the branch on a HEAD with no commit yet', async () => {
    const { root, git, write } = await twoBranches();
    git('switch', '-q', '--orphan', 'fresh');
    await write('notes.txt', 'on the orphan\n');
    expect(await filesBlockingSwitch(root, 'feature')).toContain('notes.txt');
  });

  it('says what git says: where it names files, switchToBranch refuses and names them too', async () => {
    const { root, write } = await twoBranches();
    await write('notes.txt', 'my edit\n');
    const failure = await switchToBranch(root, 'feature', 'ralph/tasks.json').catch((error: unknown) => error);
    expect(failure).toMatchObject({
      message: expect.stringMatching(/^cannot switch to branch feature: .*overwritten by checkout: notes\.txt$/),
    });
  });
});

describe('planBranchSwitch', () => {
  it('refuses a branch another worktree has checked out, naming it and where to run instead', async () => {
    const { root, git } = await twoBranches();
    const elsewhere = `${root}-feature`;
    made.push(elsewhere);
    git('worktree', 'add', '-q', elsewhere, 'feature');
    const refused = await planBranchSwitch(root, 'feature', 'ralph/tasks.json').catch((error: unknown) => error);
    expect(refused).toMatchObject({
      message: `cannot switch to branch feature: it is checked out in the worktree ${elsewhere}`,
      hint: expect.stringContaining('ralph run --worktree'),
    });
  });
});
