import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive, makeRepo, runRalph, type Repo } from '../helpers/e2e.js';

const GATE = {
  name: 'tests',
  command: 'if [ -f broken.txt ]; then echo "FAIL test/app.test.ts > the app starts"; exit 1; fi; echo ok',
};

/** A repository with lists under ralph/lists/ and the user's gate, committed on `main`. */
async function withLists(names: Record<string, string[]>): Promise<Repo> {
  const repo = await makeRepo();
  repo.git('branch', '-M', 'main');
  await mkdir(join(repo.root, 'ralph/lists'));
  for (const [name, dependsOn] of Object.entries(names))
    await repo.write(
      `ralph/lists/${name}.json`,
      JSON.stringify({ project: name, dependsOn, stories: [{ id: 'S-1', title: 'one', passes: false }] }),
    );
  await repo.write('ralph/config.json', JSON.stringify({ gates: [GATE] }));
  await repo.write('.gitignore', 'ralph/logs/\n');
  repo.git('add', '-A');
  repo.git('commit', '-q', '-m', 'lists and gates');
  return repo;
}

/** What a loop leaves on its list's branch: its files, and its list with every story passing. */
async function loopResult(repo: Repo, name: string, files: Record<string, string>, from = 'main'): Promise<void> {
  repo.git('switch', '-q', '-c', `ralph/${name}`, from);
  const done = { project: name, stories: [{ id: 'S-1', title: 'one', passes: true }] };
  await writeFile(join(repo.root, 'ralph/tasks.json'), JSON.stringify(done));
  for (const [path, text] of Object.entries(files)) await writeFile(join(repo.root, path), text);
  repo.git('add', '-A');
  repo.git('commit', '-q', '-m', `${name} done`);
  repo.git('switch', '-q', 'main');
}

/** The user's checkout as git sees it, and every loop branch's commit: integration changes none of them. */
const checkout = (repo: Repo, branches: string[]) => [
  repo.git('status', '--porcelain', '--untracked-files=all'),
  repo.git('rev-parse', 'HEAD'),
  repo.git('symbolic-ref', 'HEAD'),
  ...branches.map((branch) => repo.git('rev-parse', branch)),
];

describe('ralph integrate', () => {
  it('leaves out a branch that breaks a gate or conflicts, naming why, and keeps the others (exit 2)', async () => {
    const repo = await withLists({ api: [], broken: [], clash: [], ui: ['api'] });
    await loopResult(repo, 'api', { 'api.txt': 'api\n', 'routes.txt': 'api routes\n' });
    await loopResult(repo, 'broken', { 'broken.txt': 'oops\n' });
    await loopResult(repo, 'clash', { 'routes.txt': 'clashing routes\n' });
    await loopResult(repo, 'ui', { 'ui.txt': 'ui\n' }, 'ralph/api');
    const branches = ['ralph/api', 'ralph/broken', 'ralph/clash', 'ralph/ui'];
    const before = checkout(repo, branches);
    const result = await runRalph(repo, ['integrate', '--into', 'ralph/integration/test']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/✓ api {2}ralph\/api merged/);
    expect(result.stdout).toMatch(
      /✗ broken {2}ralph\/broken left out: gate tests failed on the merge: test\/app.test.ts > the app starts — ralph\/worktrees\/ralph-integration-test\/ralph\/logs\/gates-002-tests.log/,
    );
    expect(result.stdout).toContain('✗ clash  ralph/clash left out: conflicts in routes.txt');
    expect(result.stdout).toMatch(/✓ ui {2}ralph\/ui merged/);
    const files = repo.git('ls-tree', '-r', '--name-only', 'ralph/integration/test').split('\n');
    expect(files).toEqual(expect.arrayContaining(['api.txt', 'ui.txt', 'routes.txt']));
    expect(files).not.toContain('broken.txt');
    expect(repo.git('show', 'ralph/integration/test:routes.txt')).toBe('api routes');
    expect(checkout(repo, branches)).toEqual(before);
    const record = JSON.parse(repo.read('ralph/logs/integrate-last-run.json')) as Record<string, unknown>;
    expect(record).toMatchObject({
      into: 'ralph/integration/test',
      exitCode: 2,
      merged: ['api', 'ui'],
      leftOut: ['broken', 'clash'],
      worktree: 'ralph/worktrees/ralph-integration-test',
    });
    expect(record.lists).toContainEqual(
      expect.objectContaining({ list: 'clash', state: 'conflicts', files: ['routes.txt'] }),
    );
  });

  it('exits 0 with every complete list merged into a fresh ralph/integration/<date>-<n>, a second run into -2', async () => {
    const repo = await withLists({ api: [], todo: [] });
    await loopResult(repo, 'api', { 'api.txt': 'api\n' });
    const first = await runRalph(repo, ['integrate']);
    expect(first.code).toBe(0);
    const date = new Date().toISOString().slice(0, 10);
    expect(first.stdout).toContain(`into ralph/integration/${date}-1`);
    expect(first.stdout).toContain('· todo  ralph/todo not merged: no branch ralph/todo');
    const second = await runRalph(repo, ['integrate']);
    expect(second.stdout).toContain(`into ralph/integration/${date}-2`);
    expect(repo.git('status', '--porcelain')).toBe('');
  });

  it('refuses (64) a branch holding commits it did not make, and the branch checked out', async () => {
    const repo = await withLists({ api: [] });
    await loopResult(repo, 'api', { 'api.txt': 'api\n' });
    repo.git('branch', 'release');
    const foreign = await runRalph(repo, ['integrate', '--into', 'release']);
    expect(foreign.code).toBe(64);
    expect(foreign.stderr).toMatch(
      /^ralph: branch release is not one ralph integrate made: ralph has no record of making its commit [0-9a-f]{12}/,
    );
    const current = await runRalph(repo, ['integrate', '--into', 'main']);
    expect(current.code).toBe(64);
    expect(current.stderr).toContain('that is the branch checked out here');
    expect(repo.git('rev-parse', 'release')).toBe(repo.git('rev-parse', 'main'));
  });

  it("ends what a gate leaves behind, as a run's gates are: nothing runs after integrate", async () => {
    const repo = await withLists({ api: [] });
    const pidFile = join(repo.root, '.git/daemon.pid');
    // The gate returns once its server runs on its own (as `npm run dev &` would).
    const start = `env -i setsid sleep 300 >/dev/null 2>&1 & echo $! > ${pidFile}`;
    const daemon = { name: 'server', command: `${start}; while [ "$(cat /proc/$!/comm)" != sleep ]; do :; done` };
    await repo.write('ralph/config.json', JSON.stringify({ gates: [daemon] }));
    repo.git('commit', '-qam', 'a gate that starts a server');
    await loopResult(repo, 'api', { 'api.txt': 'api\n' });
    const result = await runRalph(repo, ['integrate', '--into', 'ralph/integration/test']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const pid = Number(repo.read('.git/daemon.pid'));
    expect(isAlive(pid)).toBe(false);
    expect(result.stdout).toMatch(/warning: ended 1 process that left the gate's group: \d+ sleep/);
  });

  it('refuses (64) a repository with no task lists, saying how to add one', async () => {
    const repo = await makeRepo();
    const result = await runRalph(repo, ['integrate']);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('no task lists under ralph/lists/');
  });
});
