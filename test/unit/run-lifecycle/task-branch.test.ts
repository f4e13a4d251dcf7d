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
});
