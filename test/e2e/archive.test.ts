import { execFileSync } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localDate } from '../../src/files/archive-name.js';
import { gitEnv, liveLock, makeProject, makeRepo, PACKAGE_ROOT, runRalph, type Repo } from '../helpers/e2e.js';

const template = (name: string) => readFile(join(PACKAGE_ROOT, 'templates', name), 'utf8');

/** A repository whose task list the loop has finished: two stories, logs, CSV, last-run.json. */
async function finishedRepo(): Promise<Repo> {
  const repo = await makeRepo();
  await repo.write('ralph/prd.md', '# The PRD\n');
  await repo.steps([{ implement: true, completeWhenDone: true }]);
  const run = await runRalph(repo, ['run']);
  expect(run.code).toBe(0);
  return repo;
}

/** The one folder under ralph/archive/, checked to be named for today (local date) and `name`. */
async function archivedFolder(repo: Repo, name: string): Promise<string> {
  const folders = await repo.list('ralph/archive');
  expect(folders).toHaveLength(1);
  // Yesterday too: the archive may have been made just before midnight.
  const days = [new Date(), new Date(Date.now() - 86_400_000)].map(localDate);
  expect(days.map((day) => `${day}-${name}`)).toContain(folders[0]);
  return `ralph/archive/${folders[0]}`;
}

describe('ralph archive: a finished task list', () => {
  it('moves tasks.json and progress.txt, copies prd.md, leaves the logs, and starts a fresh list', async () => {
    const repo = await finishedRepo();
    const tasks = repo.read('ralph/tasks.json');
    const progress = repo.read('ralph/progress.txt');
    const prompt = repo.read('ralph/prompt.md');
    const logs = await repo.logs();
    const csv = repo.read('ralph/logs/summary.csv');

    const result = await runRalph(repo, ['archive']);
    expect(result.code).toBe(0);
    const folder = await archivedFolder(repo, 'e2e');
    expect(result.stdout).toContain(`Archived to ${folder}/`);
    expect(result.stdout).toMatch(/moved +tasks\.json, progress\.txt\n/);
    expect(result.stdout).toMatch(/copied +prd\.md/);
    expect(await repo.list(folder)).toEqual(['prd.md', 'progress.txt', 'tasks.json']);
    expect(repo.read(`${folder}/tasks.json`)).toBe(tasks);
    expect(repo.read(`${folder}/progress.txt`)).toBe(progress);
    expect(repo.read(`${folder}/prd.md`)).toBe('# The PRD\n');

    expect(repo.read('ralph/tasks.json')).toBe(await template('tasks.json'));
    // The fresh list is marked as the example: ralph run refuses it until the user writes theirs.
    expect(JSON.parse(repo.read('ralph/tasks.json')).example).toBe(true);
    expect(repo.read('ralph/progress.txt')).toBe(await template('progress.txt'));
    expect(repo.read('ralph/prd.md')).toBe('# The PRD\n');
    expect(repo.read('ralph/prompt.md')).toBe(prompt);
    expect(await repo.logs()).toEqual(logs);
    expect(repo.read('ralph/logs/summary.csv')).toBe(csv);

    // The commit it prints, run as printed, leaves nothing of the archive uncommitted.
    const commit = /^Commit it: (git add -A ralph && git commit -m "Archive [^"]+")$/m.exec(result.stdout)?.[1];
    expect(commit).toBe(`git add -A ralph && git commit -m "Archive ${folder.split('/').pop()}"`);
    execFileSync('sh', ['-c', commit ?? 'false'], { cwd: repo.root, stdio: 'ignore', env: gitEnv() });
    expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe('');
  });

  it('keeps numbering iterations after the logs it left in place', async () => {
    const repo = await finishedRepo();
    await runRalph(repo, ['archive']);
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    // The fresh list is the example: --yes runs it anyway.
    const next = await runRalph(repo, ['run', '--yes']);
    expect(next.code).toBe(0);
    expect(await repo.logs()).toContain('iteration-003.log');
  });

  it('with --include-logs moves ralph/logs/ into the archive and leaves an empty logs folder', async () => {
    const repo = await finishedRepo();
    const logs = await repo.logs();
    const result = await runRalph(repo, ['archive', '--include-logs']);
    expect(result.code).toBe(0);
    const folder = await archivedFolder(repo, 'e2e');
    expect(result.stdout).toMatch(/moved +tasks\.json, progress\.txt, logs\/\n/);
    expect((await repo.list(`${folder}/logs`)).filter((name) => name !== '.gitignore')).toEqual(logs);
    expect(await repo.logs()).toEqual([]);
    // The archive is committed, its transcripts never: git sees none of them.
    repo.git('add', '-A');
    const staged = repo.git('diff', '--cached', '--name-only').split('\n');
    expect(staged).toEqual(expect.arrayContaining([`${folder}/tasks.json`, `${folder}/progress.txt`]));
    expect(staged.filter((path) => path.startsWith(`${folder}/logs`))).toEqual([]);
  });

  it('moves a pending decide.txt and blocked.txt with the list', async () => {
    const repo = await makeRepo({ stories: [{ id: 'A', passes: true }] });
    await repo.write('ralph/decide.txt', '## Question\nWhich one?\n\n---\n## Answer\n');
    await repo.write('ralph/blocked.txt', '## Blocked\nno key\n');
    const result = await runRalph(repo, ['archive']);
    expect(result.code).toBe(0);
    const folder = await archivedFolder(repo, 'e2e');
    expect(await repo.list(folder)).toEqual(['blocked.txt', 'decide.txt', 'tasks.json']);
    expect(repo.exists('ralph/decide.txt')).toBe(false);
    expect(repo.exists('ralph/blocked.txt')).toBe(false);
  });
});

describe('ralph archive: the name', () => {
  it('defaults to the branchName without ralph/, reduced to [a-z0-9-]', async () => {
    const repo = await makeRepo({
      tasksText: JSON.stringify({
        project: 'Shop',
        branchName: 'ralph/Login Page_v2',
        stories: [{ id: 'A', passes: true }],
      }),
    });
    expect((await runRalph(repo, ['archive'])).code).toBe(0);
    await archivedFolder(repo, 'login-page-v2');
  });

  it('uses --name when given', async () => {
    const repo = await makeRepo({ stories: [{ id: 'A', passes: true }] });
    expect((await runRalph(repo, ['archive', '--name', 'Sprint 12'])).code).toBe(0);
    await archivedFolder(repo, 'sprint-12');
  });

  it('adds -2, -3 to a name that is taken, and never writes into an existing archive', async () => {
    const repo = await makeRepo({ stories: [{ id: 'A', passes: true }] });
    const base = `ralph/archive/${localDate(new Date())}-e2e`;
    for (const folder of [base, `${base}-2`]) {
      await mkdir(join(repo.root, folder), { recursive: true });
      await repo.write(`${folder}/tasks.json`, `old ${folder}\n`);
    }
    const result = await runRalph(repo, ['archive']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Archived to ${base}-3/`);
    expect(repo.read(`${base}/tasks.json`)).toBe(`old ${base}\n`);
    expect(repo.read(`${base}-2/tasks.json`)).toBe(`old ${base}-2\n`);
    expect(await repo.list(`${base}-3`)).toEqual(['tasks.json']);
  });

  for (const hostile of ['../../etc', '/', '..', 'a/b', '!!!']) {
    it(`refuses --name ${JSON.stringify(hostile)} with exit 64 and moves nothing`, async () => {
      const repo = await makeRepo({ stories: [{ id: 'A', passes: true }] });
      const tasks = repo.read('ralph/tasks.json');
      const result = await runRalph(repo, ['archive', '--yes', '--name', hostile]);
      expect(result.code).toBe(64);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain('--name');
      expect(repo.exists('ralph/archive')).toBe(false);
      expect(repo.read('ralph/tasks.json')).toBe(tasks);
    });
  }
});

describe('ralph archive: refusals', () => {
  it('refuses with exit 64 while a loop is running', async () => {
    const repo = await makeRepo({ stories: [{ id: 'A', passes: true }] });
    const active = liveLock({ iteration: 4 });
    await writeFile(join(repo.root, 'ralph/.ralph-active'), JSON.stringify(active));
    const result = await runRalph(repo, ['archive', '--yes']);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain(`pid ${process.pid}`);
    expect(repo.exists('ralph/archive')).toBe(false);
    expect(repo.exists('ralph/tasks.json')).toBe(true);
  });

  it('refuses an unfinished list in CI without --yes, and archives it with --yes', async () => {
    const repo = await makeRepo({ stories: [{ id: 'A', passes: true }, { id: 'B' }, { id: 'C' }] });
    const refused = await runRalph(repo, ['archive'], { env: { CI: 'true' } });
    expect(refused.code).toBe(64);
    expect(refused.stderr).toContain('2 of 3 stories');
    expect(refused.stderr).toContain('--yes');
    expect(repo.exists('ralph/archive')).toBe(false);

    const done = await runRalph(repo, ['archive', '--yes'], { env: { CI: 'true' } });
    expect(done.code).toBe(0);
    await archivedFolder(repo, 'e2e');
  });

  it('refuses an unfinished list without a terminal to ask, even outside CI', async () => {
    const repo = await makeRepo({ stories: [{ id: 'A' }] });
    const refused = await runRalph(repo, ['archive'], { env: { CI: '' } });
    expect(refused.code).toBe(64);
    expect(repo.exists('ralph/archive')).toBe(false);
  });

  it('refuses with exit 64 when there is no task list, or it is invalid', async () => {
    const missing = await makeProject({ git: 'committed' });
    const none = await runRalph(missing, ['archive', '--yes']);
    expect(none.code).toBe(64);
    expect(none.stderr).toContain('ralph/tasks.json not found');

    const invalid = await makeRepo({ tasksText: '{"stories": [{"id": "A", "passes": "yes"}]}' });
    const bad = await runRalph(invalid, ['archive', '--yes']);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toContain('stories[0].passes');
    expect(invalid.exists('ralph/archive')).toBe(false);
  });

  it('exits 64 outside a git repository', async () => {
    const project = await makeProject({ git: 'none' });
    const result = await runRalph(project, ['archive']);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('git init');
  });
});
