import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RalphError } from '../../../src/errors.js';
import { parseTasks } from '../../../src/files/tasks.js';
import { DETACHED_HEAD, enterTaskBranch } from '../../../src/run-lifecycle/task-branch.js';
import { tempRepo } from './git-repo.js';
import type { TaskList } from '../../../src/domain/tasks.js';

const repos: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const remove of repos.splice(0)) await remove();
});

/** A repository on main with ralph/tasks.json committed, naming `branchName`. */
async function repoWithTasks(branchName: string | undefined) {
  const repo = await tempRepo();
  repos.push(repo.remove);
  await mkdir(join(repo.root, 'ralph'));
  const text = tasksText(branchName, 'US-1');
  await repo.write('ralph/tasks.json', text);
  await repo.git('add', '-A');
  await repo.git('commit', '-qm', 'tasks');
  return { ...repo, tasks: parsed(text), tasksPath: join(repo.root, 'ralph/tasks.json') };
}
function tasksText(branchName: string | undefined, id: string): string {
  return JSON.stringify({
    project: 'p',
    ...(branchName === undefined ? {} : { branchName }),
    stories: [{ id, title: id, priority: 1, passes: false }],
  });
}
function parsed(text: string): TaskList {
  const result = parseTasks(text);
  if (!result.ok) throw new Error(result.error);
  return result.tasks;
}

/** No warning is expected where a branch is checked out. */
const fail = (text: string) => {
  throw new Error(`unexpected warning: ${text}`);
};

describe('enterTaskBranch', () => {
  it('creates the branch named by the task list and says so', async () => {
    const { root, git, tasks, tasksPath } = await repoWithTasks('ralph/feature');
    const said: string[] = [];
    const entered = await enterTaskBranch({
      root,
      tasks,
      tasksPath,
      enabled: true,
      say: (line) => said.push(line),
      warn: fail,
    });
    expect(entered.branch).toBe('ralph/feature');
    expect(entered.tasks).toBe(tasks);
    expect(await git('branch', '--show-current')).toBe('ralph/feature');
    expect(said).toEqual(["created branch ralph/feature from main and switched to it (the task list's branchName)"]);
  });

  it('stays put with --no-branch, or when the task list names no branch', async () => {
    for (const [branchName, enabled] of [
      ['ralph/feature', false],
      [undefined, true],
    ] as const) {
      const { root, git, tasks, tasksPath } = await repoWithTasks(branchName);
      const said: string[] = [];
      const entered = await enterTaskBranch({
        root,
        tasks,
        tasksPath,
        enabled,
        say: (line) => said.push(line),
        warn: fail,
      });
      expect(entered).toEqual({ tasks });
      expect(await git('branch', '--show-current')).toBe('main');
      expect(said).toEqual([]);
    }
  });

  it('warns on a detached HEAD with no branch to go to: the commits would be on no branch', async () => {
    for (const [branchName, enabled] of [
      ['ralph/feature', false],
      [undefined, true],
    ] as const) {
      const { root, git, tasks, tasksPath } = await repoWithTasks(branchName);
      await git('checkout', '-q', '--detach');
      const warned: string[] = [];
      const entered = await enterTaskBranch({
        root,
        tasks,
        tasksPath,
        enabled,
        say: () => undefined,
        warn: (text) => warned.push(text),
      });
      expect(entered).toEqual({ tasks });
      expect(warned).toEqual([DETACHED_HEAD]);
    }
  });

  it("after switching to an existing branch, continues that branch's task list", async () => {
    const { root, git, write, tasks, tasksPath } = await repoWithTasks('ralph/feature');
    await git('checkout', '-qb', 'ralph/feature');
    await write('ralph/tasks.json', tasksText('ralph/feature', 'US-9'));
    await git('commit', '-qam', 'the branch moved on');
    await git('checkout', '-q', 'main');
    const entered = await enterTaskBranch({ root, tasks, tasksPath, enabled: true, say: () => undefined, warn: fail });
    expect(entered.tasks.stories.map((story) => story.id)).toEqual(['US-9']);
  });

  it('refuses a branch whose task list is broken, naming the branch and --no-branch', async () => {
    const { root, git, write, tasks, tasksPath } = await repoWithTasks('ralph/feature');
    await git('checkout', '-qb', 'ralph/feature');
    await write('ralph/tasks.json', '{ broken');
    await git('commit', '-qam', 'broken');
    await git('checkout', '-q', 'main');
    const error = await enterTaskBranch({
      root,
      tasks,
      tasksPath,
      enabled: true,
      say: () => undefined,
      warn: fail,
    }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RalphError);
    expect((error as RalphError).message).toContain(
      'ralph/tasks.json on branch ralph/feature is not a valid task list',
    );
    expect((error as RalphError).hint).toContain('--no-branch');
  });

  it('refuses an existing branch that lacks commits of the current one, naming the ways on; a merge back is no loss', async () => {
    const { root, git, write, tasks, tasksPath } = await repoWithTasks('ralph/feature');
    await git('branch', 'ralph/feature');
    await write('notes.txt', 'a fix made on main since\n');
    await git('add', '-A');
    await git('commit', '-qm', 'a newer commit on main');
    const enter = () =>
      enterTaskBranch({ root, tasks, tasksPath, enabled: true, say: () => undefined, warn: fail }).catch(
        (caught: unknown) => caught,
      );
    const error = await enter();
    expect(error).toBeInstanceOf(RalphError);
    expect((error as RalphError).message).toBe(
      'ralph/tasks.json: branchName "ralph/feature" exists and lacks 1 commit of main; switching to it would leave it behind',
    );
    expect((error as RalphError).hint).toBe(
      'merge main into it first (git switch ralph/feature && git merge main), or switch yourself to leave it (git switch ralph/feature), or stay on main with --no-branch',
    );
    expect(await git('branch', '--show-current')).toBe('main');
    // Merged in: the branch holds main's commits, and main's merge of it back adds nothing to lose.
    await git('checkout', '-q', 'ralph/feature');
    await git('merge', '-q', '--no-edit', 'main');
    await write('feature.txt', 'work on the branch\n');
    await git('add', '-A');
    await git('commit', '-qm', 'work on the branch');
    await git('checkout', '-q', 'main');
    await git('merge', '-q', '--no-ff', '--no-edit', 'ralph/feature');
    const said: string[] = [];
    const entered = await enterTaskBranch({
      root,
      tasks,
      tasksPath,
      enabled: true,
      say: (line) => said.push(line),
      warn: fail,
    });
    expect(entered.branch).toBe('ralph/feature');
    expect(said).toEqual(["switched to branch ralph/feature from main (the task list's branchName)"]);
  });
});
