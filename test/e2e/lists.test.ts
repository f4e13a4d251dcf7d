import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { holdRunLock, liveLock, makeRepo, runRalph, type Repo } from '../helpers/e2e.js';

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

  it('status and report refuse a named list that is not there (64), never reading it as no list at all', async () => {
    const repo = await repoWithLists();
    for (const command of [['status'], ['report']]) {
      const result = await runRalph(repo, [...command, '--tasks', 'ralph/lists/nope.json']);
      expect(result.code).toBe(64);
      expect(result.stderr).toBe(
        'ralph: ralph/lists/nope.json not found — name an existing task list (`ralph lists` shows them)\n',
      );
    }
  });

  it('refuses a task list outside the repository with exit 64', async () => {
    const repo = await repoWithLists();
    const result = await runRalph(repo, ['run', '--tasks', '/etc/passwd']);
    expect(result.code).toBe(64);
    expect(result.stderr).toMatch(/^ralph: --tasks \/etc\/passwd: the task list must be a file inside the repository/);
  });
});

/** Every file of the main checkout but .git, the worktrees and the fake agent's records, hashed. */
function checkoutFingerprint(repo: Repo): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(repo.root, dir), { withFileTypes: true }).sort((a, b) =>
      a.name < b.name ? -1 : 1,
    )) {
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (path === '.git' || path === 'ralph/worktrees' || entry.name.startsWith('.agent-script.json')) continue;
      if (entry.isDirectory()) walk(path);
      else hash.update(`${path}\0${readFileSync(join(repo.root, path)).toString('base64')}\0`);
    }
  };
  walk('');
  return [
    repo.git('status', '--porcelain', '--untracked-files=all'),
    repo.git('rev-parse', 'HEAD'),
    hash.digest('hex'),
  ].join('\n');
}

describe('run --worktree: a loop on its own worktree', () => {
  it('runs the list in ralph/worktrees/<branch>, committed there, and leaves the main checkout byte-identical', async () => {
    const repo = await repoWithLists();
    const before = checkoutFingerprint(repo);
    await repo.steps([{ auto: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run', '--worktree', '--tasks', 'ralph/lists/api.json']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('worktree ralph/worktrees/ralph-api added on new branch ralph/api from HEAD');
    expect(result.stdout).toContain('ralph/lists/api.json committed as ralph/tasks.json');
    expect(checkoutFingerprint(repo)).toBe(before);
    const tree = 'ralph/worktrees/ralph-api';
    expect(repo.git('-C', tree, 'branch', '--show-current')).toBe('ralph/api');
    const tasks = JSON.parse(repo.git('show', 'ralph/api:ralph/tasks.json')) as {
      stories: { id: string; passes: boolean }[];
    };
    expect(tasks.stories.map((story) => [story.id, story.passes])).toEqual([
      ['A-1', true],
      ['A-2', true],
    ]);
    // The lock, logs and records are the worktree's own, and status of that list reads them there.
    expect(repo.exists(`${tree}/ralph/logs/last-run.json`)).toBe(true);
    const status = await runRalph(repo, ['status', '--tasks', 'ralph/lists/api.json', '--json']);
    expect(JSON.parse(status.stdout)).toMatchObject({
      root: join(repo.root, tree),
      tasks: { complete: 2, total: 2 },
      lastRun: { reason: 'complete' },
    });
    expect(repo.exists(`${tree}/ralph/progress.txt`)).toBe(true);
    expect(repo.exists('ralph/logs')).toBe(false);
    expect(repo.git('-C', tree, 'status', '--porcelain')).toBe('');

    // Reused on a later run: nothing re-committed, the branch's list is the progress.
    const again = await runRalph(repo, ['run', '--worktree', '--tasks', 'ralph/lists/api.json']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('worktree ralph/worktrees/ralph-api (branch ralph/api) reused');
    expect(again.stdout).not.toContain('committed as ralph/tasks.json');
    expect(checkoutFingerprint(repo)).toBe(before);
  });

  it('places a list copied from ralph/tasks.json (the same stories) on a fresh worktree, and works its branch', async () => {
    const tasks = {
      project: 'main',
      branchName: 'ralph/main-list',
      stories: [{ id: 'US-1', title: 'One', priority: 1 }],
    };
    const repo = await makeRepo({ tasksText: JSON.stringify(tasks, null, 2) });
    await addList(repo, 'copy', ['US-1']);
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'a copy of the list');
    await repo.steps([{ auto: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run', '--worktree', '--tasks', 'ralph/lists/copy.json']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toContain('ralph/lists/copy.json committed as ralph/tasks.json');
    expect(repo.git('-C', 'ralph/worktrees/ralph-copy', 'branch', '--show-current')).toBe('ralph/copy');
    expect(repo.git('branch', '--list', 'ralph/main-list')).toBe('');
  });

  it("adds the worktree again once its folder was deleted by hand, and keeps git's record of every other", async () => {
    const repo = await repoWithLists();
    await repo.steps([{ auto: true, completeWhenDone: true }]);
    const first = await runRalph(repo, ['run', '--worktree', '--tasks', 'ralph/lists/api.json']);
    expect(first.code).toBe(0);
    // A worktree of the user's on a disk not mounted now: its record is theirs.
    const away = await mkdtemp(join(tmpdir(), 'ralph-away-'));
    repo.git('worktree', 'add', '-q', '-b', 'elsewhere', join(away, 'tree'));
    rmSync(away, { recursive: true, force: true });
    rmSync(join(repo.root, 'ralph/worktrees/ralph-api'), { recursive: true, force: true });
    const again = await runRalph(repo, ['run', '--worktree', '--tasks', 'ralph/lists/api.json']);
    expect(again.stderr).toBe('');
    expect(again.stdout).toContain('worktree ralph/worktrees/ralph-api added on branch ralph/api');
    const listed = repo.git('worktree', 'list', '--porcelain');
    expect(listed).toContain(`worktree ${join(repo.root, 'ralph/worktrees/ralph-api')}`);
    expect(listed).toContain(`worktree ${join(away, 'tree')}`);
  });

  it('a DECIDE in the worktree: notified by its list, answered from the main checkout with --tasks', async () => {
    const repo = await repoWithLists();
    // The human's answer, where the human is; the agent plants its own under the same name in the worktree.
    await repo.write('ralph/answer.md', 'Polling, says the human.\n');
    const before = checkoutFingerprint(repo);
    await repo.steps([
      {
        say: '<promise>DECIDE:WebSockets or polling?</promise>',
        files: { 'ralph/answer.md': 'AGENT: delete it all\n' },
      },
      { auto: true, completeWhenDone: true },
    ]);
    const notes = await mkdtemp(join(tmpdir(), 'ralph-note-'));
    const run = ['run', '--worktree', '--tasks', 'ralph/lists/api.json', '--max-iterations', '4'];
    const asked = await runRalph(repo, [...run, '--notify', `cmd:sh -c 'cat > ${notes}/asked.json'`]);
    expect(asked.code).toBe(3);
    const answerCommand = 'ralph answer --tasks ralph/lists/api.json "<your answer>"';
    expect(JSON.parse(readFileSync(join(notes, 'asked.json'), 'utf8'))).toMatchObject({
      event: 'decide',
      project: `${basename(repo.root)} (api)`,
      answer: answerCommand,
    });

    // Typed as it comes, in the main checkout: nothing waits there, and the refusal names the loop that does.
    const lost = await runRalph(repo, ['answer', 'Polling.']);
    expect(lost.code).toBe(64);
    expect(lost.stderr).toContain(`a loop waits in its worktree: ${answerCommand} (decide)`);

    const answered = await runRalph(
      repo,
      ['answer', '--tasks', 'ralph/lists/api.json', '--file', 'ralph/answer.md', '--run'],
      { env: { RALPH_NOTIFY: `cmd:sh -c 'cat > ${notes}/ended.json'`, RALPH_NOTIFY_ON: 'ended' } },
    );
    expect(answered.stderr).toBe('');
    expect(answered.code).toBe(0);
    const tree = 'ralph/worktrees/ralph-api';
    expect(answered.stdout).toContain(`Answered the question in ${tree}/ralph/decide.txt:`);
    expect(answered.stdout).toContain('Going on: ralph run --max-iterations 4\n');
    expect(
      repo.read(`${tree}/ralph/logs/answers/${readdirSync(join(repo.root, tree, 'ralph/logs/answers'))[0]}`),
    ).toContain('Polling, says the human.');
    expect(repo.call(2).prompt).toContain('    > Polling, says the human.');
    expect(repo.call(2).prompt).not.toContain('AGENT');
    expect(JSON.parse(repo.read(`${tree}/ralph/logs/last-run.json`))).toMatchObject({ reason: 'complete' });
    // The loop it went on with is still the list's, as its notification names it.
    expect(JSON.parse(readFileSync(join(notes, 'ended.json'), 'utf8'))).toMatchObject({
      event: 'ended',
      reason: 'complete',
      project: `${basename(repo.root)} (api)`,
    });
    expect(checkoutFingerprint(repo)).toBe(before);
  });

  it('answer --tasks never lands on another loop: a list missing, unreadable, or not the one waiting (64)', async () => {
    const repo = await repoWithLists();
    await repo.steps([{ say: '<promise>DECIDE:Keep the legacy module?</promise>' }]);
    expect((await runRalph(repo, ['run'])).code).toBe(3);
    const question = repo.read('ralph/decide.txt');
    const refusals: [string[], string][] = [
      [
        ['--tasks', 'ralph/lists/web.json'],
        'that list has no worktree, and the loop in this checkout works on another list',
      ],
      [['--tasks', 'ralph/lists/nope.json'], 'ralph/lists/nope.json not found'],
      [['--tasks', 'ralph/lists/bad.json'], 'ralph/lists/bad.json'],
    ];
    for (const [flags, said] of refusals) {
      if (flags[1] === 'ralph/lists/bad.json') await repo.write('ralph/lists/bad.json', '{ "stories": [');
      const result = await runRalph(repo, ['answer', ...flags, 'Yes.']);
      expect(result.code).toBe(64);
      expect(result.stderr).toContain(said);
      expect(repo.read('ralph/decide.txt')).toBe(question);
    }
    await rm(join(repo.root, 'ralph/lists/bad.json'));
    // The list of the loop that waits is its own to name.
    const own = await runRalph(repo, ['answer', '--tasks', 'ralph/tasks.json', 'Yes.']);
    expect(own.stderr).toBe('');
    expect(own.code).toBe(0);
    expect(repo.read('ralph/decide.txt')).toContain('## Answer\nYes.');
  });

  it('starts a new branch from --from, and keeps ralph/worktrees/ out of git through .git/info/exclude', async () => {
    const repo = await repoWithLists();
    repo.git('branch', 'base');
    await repo.write('later.txt', 'after base\n');
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'later');
    await repo.steps([{ auto: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run', '--worktree', '--tasks', 'ralph/lists/web.json', '--from', 'base']);
    expect(result.code).toBe(0);
    expect(repo.git('merge-base', '--is-ancestor', 'base', 'feature/web')).toBe('');
    expect(repo.exists('ralph/worktrees/feature-web/later.txt')).toBe(false);
    expect(repo.read('.git/info/exclude')).toContain('/ralph/worktrees/');
  });

  it('refuses --worktree in a repository with no commit', async () => {
    const repo = await makeRepo({ unborn: true });
    const result = await runRalph(repo, ['run', '--worktree', '--tasks', 'ralph/tasks.json']);
    expect(result.code).toBe(64);
    expect(result.stderr).toMatch(/^ralph: --worktree needs a commit to branch from/);
  });

  it("refuses a folder in the worktree's place that is not its worktree, and deletes nothing", async () => {
    const repo = await repoWithLists();
    await mkdir(join(repo.root, 'ralph/worktrees/ralph-api'), { recursive: true });
    await repo.write('ralph/worktrees/ralph-api/mine.txt', 'keep me\n');
    const result = await runRalph(repo, ['run', '--worktree', '--tasks', 'ralph/lists/api.json']);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('ralph/worktrees/ralph-api exists but is not a worktree of this repository');
    expect(repo.read('ralph/worktrees/ralph-api/mine.txt')).toBe('keep me\n');
  });

  it("refuses a symbolic link planted in the worktree's place", async () => {
    const repo = await repoWithLists();
    await mkdir(join(repo.root, 'ralph/worktrees'), { recursive: true });
    const elsewhere = await mkdtemp(join(tmpdir(), 'ralph-elsewhere-'));
    await symlink(elsewhere, join(repo.root, 'ralph/worktrees/ralph-api'));
    const result = await runRalph(repo, ['run', '--worktree', '--tasks', 'ralph/lists/api.json']);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('(a symbolic link); nothing was deleted');
    expect(readdirSync(elsewhere)).toEqual([]);
  });

  it('refuses a worktree whose .git the agent pointed at another repository', async () => {
    const repo = await repoWithLists();
    await repo.steps([{ commit: true }]);
    await runRalph(repo, ['run', '--worktree', '--tasks', 'ralph/lists/api.json', '--max-iterations', '1']);
    const other = await makeRepo();
    await repo.write('ralph/worktrees/ralph-api/.git', `gitdir: ${join(other.root, '.git')}\n`);
    const result = await runRalph(repo, ['run', '--worktree', '--tasks', 'ralph/lists/api.json']);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('(its .git points elsewhere)');
  });

  it("refuses a worktree whose git dir's commondir leads to another repository (one in the client's state)", async () => {
    const repo = await repoWithLists();
    await repo.steps([{ commit: true }]);
    await runRalph(repo, ['run', '--worktree', '--tasks', 'ralph/lists/api.json', '--max-iterations', '1']);
    // As an agent would: a git dir of its own where the box lets it write, with a config that runs a program.
    const planted = await makeRepo();
    await writeFile(join(repo.root, '.git/worktrees/ralph-api/commondir'), `${join(planted.root, '.git')}\n`);
    const result = await runRalph(repo, ['run', '--worktree', '--tasks', 'ralph/lists/api.json']);
    expect(result.code).toBe(64);
    expect(result.stderr).toMatch(
      /^ralph: ralph\/worktrees\/ralph-api exists but is not a worktree of this repository \(its git dir's commondir leads to \S+, not \S+\); nothing was deleted/,
    );
    expect(repo.calls()).toBe(1);
  });

  it('refuses a worktree ralph has no record of making (one the agent added before a box held .git/worktrees)', async () => {
    const repo = await repoWithLists();
    repo.git('worktree', 'add', '-q', '-b', 'ralph/api', 'ralph/worktrees/ralph-api');
    await mkdir(join(repo.root, '.git/worktrees/ralph-api/ralph'), { recursive: true });
    await writeFile(
      join(repo.root, '.git/worktrees/ralph-api/ralph/last-run.json'),
      '{"runArgs":["--max-iterations","9"]}',
    );
    await repo.write('ralph/worktrees/ralph-api/ralph/blocked.txt', '## Blocked (from iteration 1)\nneed a human\n');
    for (const args of [
      ['run', '--worktree', '--tasks', 'ralph/lists/api.json'],
      ['answer', '--tasks', 'ralph/lists/api.json', '--run', 'done'],
    ]) {
      const result = await runRalph(repo, args);
      expect(result.code).toBe(64);
      expect(result.stderr).toMatch(
        /^ralph: ralph\/worktrees\/ralph-api exists but is not a worktree of this repository \(ralph has no record of making it, in \S+\/\.git\/ralph\/worktrees\.jsonl\); nothing was deleted/,
      );
    }
    // Typed in the worktree itself: its record is no one's word either.
    const inside = await runRalph(repo, ['answer', '--run', 'done'], { cwd: 'ralph/worktrees/ralph-api' });
    expect(inside.code).toBe(64);
    expect(inside.stderr).toMatch(
      /^ralph: --run: \S+last-run\.json lies in a worktree ralph cannot vouch for \(ralph has no record of making it/,
    );
    expect(repo.read('ralph/worktrees/ralph-api/ralph/blocked.txt')).toContain('need a human');
    expect(repo.calls()).toBe(0);
  });

  it('refuses two lists naming one branch, naming both', async () => {
    const repo = await repoWithLists();
    await addList(repo, 'web2', ['X-1'], { branchName: 'feature/web' });
    const result = await runRalph(repo, ['run', '--worktree', '--tasks', 'ralph/lists/web.json']);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('ralph/lists/web.json and ralph/lists/web2.json both name branch feature/web');
  });

  it('refuses a list name that is not a safe file name', async () => {
    const repo = await repoWithLists();
    await addList(repo, 'bad name', ['X-1']);
    const result = await runRalph(repo, ['run', '--worktree', '--tasks', 'ralph/lists/api.json']);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('"bad name" is not a safe list name');
  });

  it('refuses --from without --worktree', async () => {
    const repo = await repoWithLists();
    const result = await runRalph(repo, ['run', '--from', 'HEAD']);
    expect(result.code).toBe(64);
    expect(result.stderr).toMatch(/^ralph: --from needs --worktree/);
  });
});

interface ListsJson {
  lists: {
    name: string | null;
    file: string;
    branch: string | null;
    dependsOn: string[];
    worktree: string | null;
    stories: { complete: number; total: number } | null;
    storiesFrom: string;
    running: { pid: number } | null;
    lastEnding: { reason: string; exitCode: number } | null;
  }[];
}

async function listsJson(repo: Repo): Promise<ListsJson['lists']> {
  const result = await runRalph(repo, ['lists', '--json']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  return (JSON.parse(result.stdout) as ListsJson).lists;
}

describe('ralph lists', () => {
  it('shows every list: progress from the worktree, else the branch, else the file; its loop and last ending', async () => {
    const repo = await repoWithLists();
    await addList(repo, 'docs', ['D-1'], { dependsOn: ['api'] });
    await repo.steps([{ auto: true, completeWhenDone: true }]);
    expect((await runRalph(repo, ['run', '--worktree', '--tasks', 'ralph/lists/api.json'])).code).toBe(0);

    const [main, api, docs, web] = await listsJson(repo);
    expect(main).toMatchObject({ name: null, file: 'ralph/tasks.json', branch: null, storiesFrom: 'file' });
    expect(main?.stories).toEqual({ complete: 0, total: 2 });
    expect(api).toMatchObject({
      name: 'api',
      branch: 'ralph/api',
      worktree: 'ralph/worktrees/ralph-api',
      storiesFrom: 'worktree',
      stories: { complete: 2, total: 2 },
      running: null,
      lastEnding: { reason: 'complete', exitCode: 0 },
    });
    expect(docs).toMatchObject({ name: 'docs', dependsOn: ['api'], storiesFrom: 'file', lastEnding: null });
    expect(web).toMatchObject({ name: 'web', branch: 'feature/web', stories: { complete: 0, total: 1 } });

    // A live loop in the worktree: its lock is held.
    const lock = await holdRunLock({ root: join(repo.root, 'ralph/worktrees/ralph-api') });
    try {
      expect((await listsJson(repo))[1]?.running).not.toBeNull();
    } finally {
      await lock.release();
    }

    // The worktree gone, the branch still says how far the list got.
    repo.git('worktree', 'remove', 'ralph/worktrees/ralph-api');
    const fromBranch = (await listsJson(repo))[1];
    expect(fromBranch).toMatchObject({ worktree: null, storiesFrom: 'branch', stories: { complete: 2, total: 2 } });

    const table = await runRalph(repo, ['lists']);
    expect(table.stdout).toMatch(/^api +ralph\/api +2\/2 +branch/m);
    expect(table.stdout).toContain('docs starts after api');
  });
});

describe('ralph lists and a task list the agent blew up on its branch', () => {
  it('names the file too large to read on that list alone, reads no more of it, and shows the others', async () => {
    const repo = await repoWithLists();
    repo.git('checkout', '-q', '-b', 'ralph/api');
    const stories = Array.from({ length: 40_000 }, (_, n) => ({ id: `A-${n}`, title: 'x'.repeat(100), passes: false }));
    await repo.write('ralph/tasks.json', JSON.stringify({ project: 'big', stories }));
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'the agent wrote 6 MB of stories');
    repo.git('checkout', '-q', '-');
    const result = await runRalph(repo, ['lists', '--json']);
    expect(result.code).toBe(0);
    const [, api, web] = (JSON.parse(result.stdout) as { lists: (ListsJson['lists'][number] & { problem: string })[] })
      .lists;
    expect(api).toMatchObject({ name: 'api', stories: null, storiesFrom: 'branch' });
    expect(api?.problem).toMatch(/^its ralph\/tasks\.json is \d+ bytes, over the 4194304 read from a branch$/);
    expect(web).toMatchObject({ name: 'web', stories: { complete: 0, total: 1 } });
  });
});

describe('ralph lists with a broken list', () => {
  it('shows every other list, the broken ones as broken with their reason on stderr, and exits 64', async () => {
    const repo = await repoWithLists();
    await addList(repo, 'docs', ['D-1'], { dependsOn: ['web'] });
    await repo.write('ralph/lists/web.json', '{ "stories": [');
    // A folder where a list should be: no file to read at all.
    await mkdir(join(repo.root, 'ralph/lists/folder.json'));
    await repo.write('ralph/lists/bad name.json', repo.read('ralph/lists/api.json'));

    const table = await runRalph(repo, ['lists']);
    expect(table.code).toBe(64);
    expect(table.stdout).toMatch(/^ralph\/tasks\.json +\(current branch\) +0\/2 +file/m);
    expect(table.stdout).toMatch(/^api +ralph\/api +0\/2 +file/m);
    expect(table.stdout).toMatch(/^docs +ralph\/docs +0\/1 +file/m);
    for (const name of ['web', 'folder', 'bad name'])
      expect(table.stdout).toMatch(new RegExp(`^${name} +\\? +broken`, 'm'));
    expect(table.stderr.split('\n')).toEqual([
      'ralph: "ralph/lists/bad name.json": "bad name" is not a safe list name — rename it to letters, digits, ".", "_" or "-" (starting with a letter or digit, at most 64)',
      'ralph: ralph/lists/folder.json is a folder, not a regular file — ralph reads only regular files; move it away',
      expect.stringMatching(
        /^ralph: ralph\/lists\/web\.json: not valid JSON \(.*\) — fix the task list, then run again$/,
      ),
      '',
    ]);

    const json = await runRalph(repo, ['lists', '--json']);
    expect(json.code).toBe(64);
    expect(json.stderr).toBe(table.stderr);
    const lists = (
      JSON.parse(json.stdout) as { lists: { name: string | null; broken: boolean; problem: string | null }[] }
    ).lists;
    expect(lists.map((list) => [list.name, list.broken])).toEqual([
      [null, false],
      ['api', false],
      ['bad name', true],
      ['docs', false],
      ['folder', true],
      ['web', true],
    ]);
    expect(lists[5]?.problem).toMatch(
      /^ralph\/lists\/web\.json: not valid JSON .* — fix the task list, then run again$/,
    );

    // A broken ralph/tasks.json is one broken list too.
    await rm(join(repo.root, 'ralph/lists'), { recursive: true });
    await addList(repo, 'api', ['A-1']);
    await repo.write('ralph/tasks.json', '[]');
    const main = await runRalph(repo, ['lists']);
    expect(main.code).toBe(64);
    expect(main.stdout).toMatch(/^ralph\/tasks\.json +\? +broken/m);
    expect(main.stdout).toMatch(/^api +ralph\/api +0\/1/m);
    expect(main.stderr).toMatch(/^ralph: ralph\/tasks\.json: .* — fix the task list, then run again\n$/);
  });

  it('run --parallel still refuses to start with a broken list (64), and starts no agent', async () => {
    const repo = await repoWithLists();
    await repo.write('ralph/lists/web.json', '{ "stories": [');
    const result = await runRalph(repo, ['run', '--parallel']);
    expect(result.code).toBe(64);
    expect(result.stderr).toMatch(
      /^ralph: ralph\/lists\/web\.json: not valid JSON .* — fix the task list, then run again\n$/,
    );
    expect(repo.exists('ralph/worktrees')).toBe(false);
    expect(repo.calls()).toBe(0);
  });
});

describe('ralph worktrees prune', () => {
  it('removes merged and gone worktrees, keeps unmerged, dirty and live ones, and keeps every log', async () => {
    const repo = await repoWithLists();
    await addList(repo, 'dirty', ['X-1']);
    await addList(repo, 'live', ['L-1']);
    await addList(repo, 'gone', ['G-1']);
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'more lists');
    await repo.steps([{ auto: true, completeWhenDone: true }]);
    for (const name of ['api', 'web', 'dirty', 'live', 'gone'])
      expect((await runRalph(repo, ['run', '--worktree', '--tasks', `ralph/lists/${name}.json`])).code).toBe(0);
    repo.git('merge', '-q', '--no-edit', 'ralph/api');
    await repo.write('ralph/worktrees/ralph-dirty/wip.txt', 'unfinished\n');
    // Detached, its branch deleted, its commit kept on another branch: removing it loses no commit.
    repo.git('-C', 'ralph/worktrees/ralph-gone', 'checkout', '-q', '--detach');
    repo.git('branch', '-q', 'kept-gone', 'ralph/gone');
    repo.git('branch', '-q', '-D', 'ralph/gone');
    // A worktree folder deleted by hand: only git's record of it goes.
    repo.git('worktree', 'add', '-q', '--detach', 'ralph/worktrees/ralph-vanished', 'HEAD');
    await rm(join(repo.root, 'ralph/worktrees/ralph-vanished'), { recursive: true });
    const lock = await holdRunLock({ root: join(repo.root, 'ralph/worktrees/ralph-live') });
    const before = repo.git('for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads/');
    let result;
    try {
      result = await runRalph(repo, ['worktrees', 'prune']);
    } finally {
      await lock.release();
    }
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines).toContain(
      'removed ralph/worktrees/ralph-api (branch ralph/api is merged into HEAD); its logs are in ralph/logs/worktrees/ralph-api/',
    );
    expect(lines).toContain('kept    ralph/worktrees/feature-web (branch feature/web is not merged into HEAD)');
    expect(lines).toContain(
      'kept    ralph/worktrees/ralph-dirty (it holds uncommitted work: commit or stash it first)',
    );
    expect(lines).toContain('kept    ralph/worktrees/ralph-live (a loop runs in it)');
    expect(lines).toContain(
      'removed ralph/worktrees/ralph-gone (its HEAD is detached, its commit on a branch); its logs are in ralph/logs/worktrees/ralph-gone/',
    );
    expect(lines).toContain("forgot  ralph/worktrees/ralph-vanished (its folder is gone: git's record of it)");
    expect(repo.exists('ralph/worktrees/ralph-api')).toBe(false);
    expect(repo.exists('ralph/worktrees/ralph-gone')).toBe(false);
    expect(repo.read('ralph/worktrees/ralph-dirty/wip.txt')).toBe('unfinished\n');
    expect(repo.exists('ralph/logs/worktrees/ralph-api/last-run.json')).toBe(true);
    // Branches stay as they were.
    expect(repo.git('for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads/')).toBe(before);
  });

  it('keeps a worktree whose branch is gone when its commit is on no branch', async () => {
    const repo = await repoWithLists();
    await repo.steps([{ auto: true, completeWhenDone: true }]);
    expect((await runRalph(repo, ['run', '--worktree', '--tasks', 'ralph/lists/api.json'])).code).toBe(0);
    repo.git('-C', 'ralph/worktrees/ralph-api', 'checkout', '-q', '--detach');
    repo.git('branch', '-q', '-D', 'ralph/api');
    const result = await runRalph(repo, ['worktrees', 'prune']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(
      /^kept {4}ralph\/worktrees\/ralph-api \(its HEAD is detached and its commit \w+ is on no branch/m,
    );
    expect(repo.exists('ralph/worktrees/ralph-api/ralph/tasks.json')).toBe(true);
  });
});

describe('the Stop hook with --tasks', () => {
  it('checks the list the lock names, and only a path inside ralph/', async () => {
    const repo = await repoWithLists();
    await repo.write('.git/ralph/tasks-snapshot.json', repo.read('ralph/lists/api.json'));
    const list = JSON.parse(repo.read('ralph/lists/api.json')) as { stories: { passes: boolean }[] };
    for (const story of list.stories) story.passes = true;
    await repo.write('ralph/lists/api.json', JSON.stringify(list, null, 2));
    repo.git('add', '-A', '--', 'ralph/lists');
    repo.git('commit', '-q', '-m', 'agent work');
    const stop = async (tasks: string) => {
      const lock = liveLock({ startedAt: new Date().toISOString(), iteration: 1, mode: 'implement', tasks });
      await repo.write('ralph/.ralph-active', JSON.stringify(lock));
      return runRalph(repo, ['hook', 'stop'], {
        input: JSON.stringify({ cwd: repo.root, hook_event_name: 'Stop', stop_hook_active: false }),
        env: { CLAUDE_PROJECT_DIR: repo.root },
      });
    };
    const blocked = await stop('ralph/lists/api.json');
    expect(blocked.code).toBe(0);
    expect((JSON.parse(blocked.stdout) as { decision: string }).decision).toBe('block');
    // A path out of ralph/ in the lock is not followed: the hook compares ralph/tasks.json, unchanged.
    await repo.write('.git/ralph/tasks-snapshot.json', repo.read('ralph/tasks.json'));
    const flipped = JSON.parse(repo.read('ralph/tasks.json')) as { stories: { passes: boolean }[] };
    for (const story of flipped.stories) story.passes = true;
    await repo.write('flipped.json', JSON.stringify(flipped, null, 2));
    repo.git('add', 'flipped.json');
    repo.git('commit', '-q', '-m', 'a list outside ralph/');
    expect((await stop('ralph/../flipped.json')).stdout).toBe('');
  });
});

describe('run --worktree --dry-run', () => {
  it('makes no worktree, and checks one that exists without committing in it', async () => {
    const repo = await repoWithLists();
    const before = checkoutFingerprint(repo);
    const refused = await runRalph(repo, ['run', '--worktree', '--dry-run', '--tasks', 'ralph/lists/api.json']);
    expect(refused.code).toBe(64);
    expect(refused.stderr).toContain('--dry-run: the worktree ralph/worktrees/ralph-api does not exist yet');
    expect(repo.exists('ralph/worktrees')).toBe(false);
    expect(checkoutFingerprint(repo)).toBe(before);
    repo.git('worktree', 'add', '-q', '-b', 'ralph/api', 'ralph/worktrees/ralph-api');
    // As ralph records a worktree it made: one it has no record of is refused (the next test).
    await repo.write('.git/ralph/worktrees.jsonl', '{"dir":"ralph/worktrees/ralph-api","name":"ralph-api"}\n');
    const head = repo.git('rev-parse', 'ralph/api');
    const checked = await runRalph(repo, ['run', '--worktree', '--dry-run', '--tasks', 'ralph/lists/api.json']);
    expect(checked.stdout).toContain('ralph/lists/api.json would be committed as ralph/tasks.json');
    expect(repo.git('rev-parse', 'ralph/api')).toBe(head);
  });
});
