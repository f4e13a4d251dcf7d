import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, runRalph, type Repo } from '../helpers/e2e.js';

/** A list under ralph/lists/ with these story ids, none passing. */
async function addList(repo: Repo, name: string, ids: string[], extra: Record<string, unknown> = {}): Promise<void> {
  await mkdir(join(repo.root, 'ralph/lists'), { recursive: true });
  const stories = ids.map((id, index) => ({ id, title: `Story ${id}`, priority: index + 1, passes: false }));
  await repo.write(`ralph/lists/${name}.json`, JSON.stringify({ project: name, ...extra, stories }, null, 2));
}

/** A repository with the default list and two more, all committed. */
async function repoWithLists(): Promise<Repo> {
  const repo = await makeRepo();
  await addList(repo, 'api', ['A-1', 'A-2']);
  await addList(repo, 'web', ['W-1'], { branchName: 'feature/web' });
  repo.git('add', '-A');
  repo.git('commit', '-q', '-m', 'lists');
  return repo;
}

describe('--tasks: one of several task lists', () => {
  it('runs the chosen list on its default branch, and leaves ralph/tasks.json alone', async () => {
    const repo = await repoWithLists();
    const before = repo.read('ralph/tasks.json');
    await repo.steps([{ auto: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run', '--tasks', 'ralph/lists/api.json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(repo.git('branch', '--show-current')).toBe('ralph/api');
    expect(repo.call(1).prompt).toContain("**Task list:** this run's task list is `ralph/lists/api.json`");
    const api = JSON.parse(repo.read('ralph/lists/api.json')) as { stories: { passes: boolean }[] };
    expect(api.stories.every((story) => story.passes)).toBe(true);
    expect(repo.read('ralph/tasks.json')).toBe(before);
  });

  it('takes RALPH_TASKS and the config key, and shows that list in status and archive', async () => {
    const repo = await repoWithLists();
    const status = await runRalph(repo, ['status', '--json'], { env: { RALPH_TASKS: 'ralph/lists/web.json' } });
    expect(status.code).toBe(0);
    expect(JSON.stringify(JSON.parse(status.stdout))).toContain('"project":"web"');
    await repo.write('ralph/config.json', JSON.stringify({ tasks: 'ralph/lists/api.json' }));
    const configured = await runRalph(repo, ['status', '--json']);
    expect(JSON.stringify(JSON.parse(configured.stdout))).toContain('"project":"api"');
    const archived = await runRalph(repo, ['archive', '--yes', '--tasks', 'ralph/lists/web.json']);
    expect(archived.code).toBe(0);
    expect(repo.exists('ralph/lists/web.json')).toBe(false);
    expect(repo.exists('ralph/lists/api.json')).toBe(true);
    expect(repo.exists('ralph/tasks.json')).toBe(true);
    expect(archived.stdout).toContain('moved   ralph/lists/web.json (as tasks.json)');
  });

  it('refuses a task list outside the repository with exit 64', async () => {
    const repo = await repoWithLists();
    const result = await runRalph(repo, ['run', '--tasks', '/etc/passwd']);
    expect(result.code).toBe(64);
    expect(result.stderr).toMatch(/^ralph: --tasks \/etc\/passwd: the task list must be a file inside the repository/);
  });
});
