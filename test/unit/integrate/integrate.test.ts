import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RalphError } from '../../../src/errors.js';
import { integrate, type IntegrateOptions } from '../../../src/integrate/integrate.js';
import type { ListRef } from '../../../src/integrate/integration-order.js';
import { gateEnvironment } from '../../../src/run-lifecycle/agent-environment.js';
import { realRepository } from '../git/real-repository.js';

/** A repository on `main` with a README, and a way to make a loop's branch with its files and its task list. */
async function project() {
  const repo = await realRepository('ralph-integrate-');
  const { root, git } = repo;
  await writeFile(join(root, 'README.md'), 'project\n');
  await writeFile(join(root, '.gitignore'), 'ralph/worktrees/\nralph/logs/\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  const loopBranch = async (
    branch: string,
    files: Record<string, string>,
    options: { passes?: boolean; from?: string } = {},
  ) => {
    git('switch', '-q', '-c', branch, options.from ?? 'main');
    await mkdir(join(root, 'ralph'), { recursive: true });
    const stories = [{ id: 'S-1', title: 'one', passes: options.passes ?? true }];
    await writeFile(join(root, 'ralph/tasks.json'), JSON.stringify({ project: branch, stories }));
    for (const [name, text] of Object.entries(files)) await writeFile(join(root, name), text);
    git('add', '-A');
    git('commit', '-q', '-m', `work on ${branch}`);
    git('switch', '-q', 'main');
  };
  const options = (lists: ListRef[], more: Partial<IntegrateOptions> = {}): IntegrateOptions => ({
    root,
    lists,
    into: 'ralph/integration/test',
    worktree: join(root, 'ralph/worktrees/ralph-integration-test'),
    gates: [],
    env: gateEnvironment(process.env),
    ...more,
  });
  return { ...repo, loopBranch, options };
}

const list = (name: string, dependsOn: string[] = []): ListRef => ({ name, branch: `ralph/${name}`, dependsOn });

/** Each branch's commit, the user's HEAD and status: what integration must leave as it was. */
function untouched(git: (...args: string[]) => string, branches: string[]) {
  return [
    ...branches.map((branch) => git('rev-parse', branch)),
    git('rev-parse', 'HEAD'),
    git('status', '--porcelain'),
  ];
}

describe('integrate', () => {
  it('merges the complete branches in dependency order, leaving out a conflicting one with its files named', async () => {
    const { git, loopBranch, options } = await project();
    await loopBranch('ralph/api', { 'api.txt': 'api\n', 'shared.txt': 'from api\n' });
    await loopBranch('ralph/ui', { 'ui.txt': 'ui\n' });
    await loopBranch('ralph/clash', { 'shared.txt': 'from clash\n' });
    await loopBranch('ralph/open', { 'open.txt': 'open\n' }, { passes: false });
    const before = untouched(git, ['ralph/api', 'ralph/ui', 'ralph/clash', 'ralph/open']);
    // ui depends on api: api goes first although ui comes first in the list.
    const result = await integrate(options([list('clash'), list('ui', ['api']), list('open'), list('api')]));
    expect(result.lists.map(({ list: name, state }) => [name, state])).toEqual([
      ['clash', 'merged'],
      ['api', 'conflicts'],
      ['ui', 'waits'],
      ['open', 'not_complete'],
    ]);
    expect(result.lists[1]).toMatchObject({ files: ['shared.txt'] });
    expect(result.lists[3]).toMatchObject({ why: '1 of 1 story still open in ralph/tasks.json' });
    expect(git('rev-parse', 'ralph/integration/test')).toBe(result.head);
    expect(git('show', 'ralph/integration/test:shared.txt')).toBe('from clash');
    // Every loop's task list conflicts with every other's: the integration branch keeps the start's (none here).
    expect(git('ls-tree', '--name-only', '-r', 'ralph/integration/test')).not.toMatch(/ralph\/tasks\.json/);
    expect(untouched(git, ['ralph/api', 'ralph/ui', 'ralph/clash', 'ralph/open'])).toEqual(before);
  });

  it("reads a list run with --tasks from ralph/lists/, and never takes the start's task list for a loop's", async () => {
    const { root, git, options } = await project();
    const done = JSON.stringify({ project: 'p', stories: [{ id: 'S-1', title: 'one', passes: true }] });
    await mkdir(join(root, 'ralph/lists'), { recursive: true });
    await writeFile(join(root, 'ralph/tasks.json'), done);
    git('add', '-A');
    git('commit', '-q', '-m', 'the default list, done');
    git('switch', '-q', '-c', 'ralph/web');
    await writeFile(join(root, 'ralph/lists/web.json'), done);
    git('add', '-A');
    git('commit', '-q', '-m', 'web list done');
    git('switch', '-q', '-c', 'ralph/idle', 'main');
    await writeFile(join(root, 'idle.txt'), 'idle\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'idle, its list untouched');
    git('switch', '-q', 'main');
    const result = await integrate(options([list('idle'), list('web')]));
    expect(result.lists.map(({ list: name, state }) => [name, state])).toEqual([
      ['idle', 'not_complete'],
      ['web', 'merged'],
    ]);
    expect(result.lists[0]).toMatchObject({ why: 'no ralph/lists/idle.json on ralph/idle' });
  });

  it('leaves out a branch whose merge fails a gate, puts the branch back before it, and keeps the others', async () => {
    const { root, git, loopBranch, options } = await project();
    await loopBranch('ralph/good', { 'good.txt': 'ok\n' });
    await loopBranch('ralph/bad', { 'broken.txt': 'broken\n' });
    await loopBranch('ralph/later', { 'later.txt': 'ok\n' });
    const gates = [
      {
        name: 'check',
        // A failing run leaves a file behind, which the next merge's gates must not see.
        command:
          'if [ -f left-behind.txt ]; then exit 3; fi; if [ -f broken.txt ]; then echo "broken.txt is here"; touch left-behind.txt; exit 1; fi',
        timeoutMs: 30_000,
      },
    ];
    const result = await integrate(options([list('good'), list('bad'), list('later')], { gates }));
    expect(result.lists.map(({ state }) => state)).toEqual(['merged', 'gate_failed', 'merged']);
    expect(result.lists[1]).toMatchObject({ gate: 'check', line: expect.stringMatching(/broken\.txt is here|exit 1/) });
    const files = git('ls-tree', '--name-only', 'ralph/integration/test').split('\n');
    expect(files).toEqual(expect.arrayContaining(['good.txt', 'later.txt']));
    expect(files).not.toContain('broken.txt');
    // The worktree holds what the branch holds; the user's checkout has none of it.
    expect(existsSync(join(options([]).worktree, 'broken.txt'))).toBe(false);
    expect(existsSync(join(options([]).worktree, 'later.txt'))).toBe(true);
    expect(existsSync(join(root, 'good.txt'))).toBe(false);
  });

  it('continues its own branch on a second run, and finds merged work already in', async () => {
    const { git, loopBranch, options } = await project();
    await loopBranch('ralph/api', { 'api.txt': 'api\n' });
    const first = await integrate(options([list('api')]));
    await loopBranch('ralph/ui', { 'ui.txt': 'ui\n' });
    const second = await integrate(options([list('api'), list('ui')]));
    expect(second.lists.map(({ state }) => state)).toEqual(['already_in', 'merged']);
    expect(git('merge-base', '--is-ancestor', first.head, second.head)).toBe('');
  });

  it("refuses a branch with commits it did not make, and the user's own branch", async () => {
    const { git, loopBranch, options } = await project();
    await loopBranch('ralph/api', { 'api.txt': 'api\n' });
    git('branch', 'feature');
    const foreign = await integrate(options([list('api')], { into: 'feature' })).catch((error: unknown) => error);
    expect(foreign).toBeInstanceOf(RalphError);
    expect((foreign as RalphError).message).toMatch(/^branch feature is not one ralph integrate made/);
    const current = await integrate(options([list('api')], { into: 'main' })).catch((error: unknown) => error);
    expect((current as RalphError).message).toMatch(/that is the branch checked out here/);
    expect(git('rev-parse', 'feature')).toBe(git('rev-parse', 'main'));
  });

  it('refuses an integration branch someone committed on', async () => {
    const { git, loopBranch, options } = await project();
    await loopBranch('ralph/api', { 'api.txt': 'api\n' });
    const { worktree } = options([]);
    await integrate(options([list('api')]));
    git('-C', worktree, 'switch', '-q', 'ralph/integration/test');
    await writeFile(join(worktree, 'hand.txt'), 'by hand\n');
    git('-C', worktree, 'add', 'hand.txt');
    git('-C', worktree, 'commit', '-q', '-m', 'by hand');
    const refused = await integrate(options([list('api')])).catch((error: unknown) => error);
    expect((refused as RalphError).message).toMatch(/ralph has no record of making its commit/);
    expect(await readFile(join(worktree, 'hand.txt'), 'utf8')).toBe('by hand\n');
  });

  it('refuses a folder in the worktree place that is no worktree of the branch, touching nothing in it', async () => {
    const { loopBranch, options } = await project();
    await loopBranch('ralph/api', { 'api.txt': 'api\n' });
    const { worktree } = options([]);
    await mkdir(worktree, { recursive: true });
    await writeFile(join(worktree, 'mine.txt'), 'mine\n');
    const refused = await integrate(options([list('api')])).catch((error: unknown) => error);
    expect((refused as RalphError).message).toMatch(/exists but is not a worktree of this repository/);
    expect(await readFile(join(worktree, 'mine.txt'), 'utf8')).toBe('mine\n');
  });
});
