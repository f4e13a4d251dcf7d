import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RalphError } from '../../../src/errors.js';
import { parseTasks } from '../../../src/files/tasks.js';
import {
  branchSlug,
  findTaskLists,
  isSafeListName,
  surveyTaskLists,
  worktreeDir,
} from '../../../src/lists/task-lists.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'ralph-lists-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function list(name: string, extra: Record<string, unknown> = {}): Promise<void> {
  await mkdir(join(root, 'ralph/lists'), { recursive: true });
  await writeFile(join(root, 'ralph/lists', name), JSON.stringify({ stories: [{ id: '1', title: 't' }], ...extra }));
}

async function refusal(): Promise<RalphError> {
  const error = await findTaskLists(root).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(RalphError);
  expect((error as RalphError).kind).toBe('setup');
  return error as RalphError;
}

describe('findTaskLists', () => {
  it('finds no list when ralph/lists/ is missing', async () => {
    expect(await findTaskLists(root)).toEqual([]);
  });

  it('reads every .json list, sorted by name, with its branch and dependsOn', async () => {
    await list('web.json', { branchName: 'feature/web', dependsOn: ['api'] });
    await list('api.json');
    await writeFile(join(root, 'ralph/lists/README.md'), 'not a list');
    expect(await findTaskLists(root)).toEqual([
      { name: 'api', file: join(root, 'ralph/lists/api.json'), branch: 'ralph/api', dependsOn: [] },
      { name: 'web', file: join(root, 'ralph/lists/web.json'), branch: 'feature/web', dependsOn: ['api'] },
    ]);
  });

  it('refuses a list name that is not a safe file name', async () => {
    await list('-rf.json');
    expect((await refusal()).message).toContain('"-rf" is not a safe list name');
  });

  it('refuses a list that is no task list, naming its file', async () => {
    await list('api.json', { stories: [] });
    expect((await refusal()).message).toMatch(/^ralph\/lists\/api\.json: .*no stories/);
  });

  it('refuses two lists naming one branch, naming both', async () => {
    await list('a.json', { branchName: 'ralph/shared' });
    await list('b.json', { branchName: 'ralph/shared' });
    expect((await refusal()).message).toBe('ralph/lists/a.json and ralph/lists/b.json both name branch ralph/shared');
  });

  it('refuses two branches that would share one worktree folder', async () => {
    await list('a.json', { branchName: 'ralph/x' });
    await list('b.json', { branchName: 'ralph-x' });
    expect((await refusal()).message).toContain('would share the worktree ralph/worktrees/ralph-x');
  });

  it('refuses a dependsOn naming no list', async () => {
    await list('a.json', { dependsOn: ['ghost'] });
    expect((await refusal()).message).toContain('ralph/lists/a.json: dependsOn names "ghost"');
  });

  it('refuses a cycle, naming it', async () => {
    await list('a.json', { dependsOn: ['b'] });
    await list('b.json', { dependsOn: ['c'] });
    await list('c.json', { dependsOn: ['a'] });
    expect((await refusal()).message).toContain('a -> b -> c -> a');
  });

  it('refuses a list that depends on itself', async () => {
    await list('a.json', { dependsOn: ['a'] });
    expect((await refusal()).message).toContain('a -> a');
  });

  it('accepts a diamond of dependencies', async () => {
    await list('a.json');
    await list('b.json', { dependsOn: ['a'] });
    await list('c.json', { dependsOn: ['a'] });
    await list('d.json', { dependsOn: ['b', 'c'] });
    expect((await findTaskLists(root)).map((found) => found.name)).toEqual(['a', 'b', 'c', 'd']);
  });
});

describe('surveyTaskLists', () => {
  it('keeps the broken lists apart, each with its error, and reads the others', async () => {
    await list('api.json');
    await list('web.json', { stories: [] });
    await list('docs.json', { dependsOn: ['web'] });
    await mkdir(join(root, 'ralph/lists/folder.json'));
    const { lists, broken } = await surveyTaskLists(root);
    expect(lists.map((found) => found.name)).toEqual(['api', 'docs']);
    expect(broken.map((found) => [found.name, found.error.kind])).toEqual([
      ['folder', 'io'],
      ['web', 'setup'],
    ]);
    expect(broken[1]?.error.message).toMatch(/^ralph\/lists\/web\.json: /);
    // The strict reading refuses the first broken one, not docs' dependsOn on it.
    expect((await findTaskLists(root).catch((error: unknown) => error as RalphError)) as RalphError).toMatchObject({
      message: expect.stringMatching(/lists\/folder\.json is a folder/) as unknown,
    });
  });

  it('still refuses a dependsOn naming no file at all', async () => {
    await list('a.json', { dependsOn: ['ghost'] });
    await writeFile(join(root, 'ralph/lists/b.json'), '{');
    await expect(surveyTaskLists(root)).rejects.toThrow('dependsOn names "ghost"');
  });
});

describe('list names and worktree folders', () => {
  it('takes letters, digits, dot, dash and underscore only', () => {
    expect(isSafeListName('api-auth_2.v1')).toBe(true);
    for (const bad of ['', '.hidden', '-flag', 'a b', 'a..b', 'a.', 'x'.repeat(65), 'ü'])
      expect(isSafeListName(bad), bad).toBe(false);
  });

  it('puts a branch into one folder under ralph/worktrees/', () => {
    expect(branchSlug('ralph/api-auth')).toBe('ralph-api-auth');
    expect(worktreeDir('/repo', 'feature/a/b')).toBe('/repo/ralph/worktrees/feature-a-b');
  });

  it('reads dependsOn from a task list and refuses a non-array', () => {
    const parsed = parseTasks(JSON.stringify({ dependsOn: ['a'], stories: [{ id: '1' }] }));
    expect(parsed.ok && parsed.tasks.dependsOn).toEqual(['a']);
    expect(parseTasks(JSON.stringify({ dependsOn: 'a', stories: [{ id: '1' }] })).ok).toBe(false);
  });
});
