import { execFileSync, spawn } from 'node:child_process';
import { processStartTime } from '../../src/process/proc.js';
import { chmod, mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { holdRunLock, liveLock, makeRepo, runRalph, type Repo } from '../helpers/e2e.js';
import { readAsRunner, readOutputFile, ungroupedLines } from '../helpers/workflow-commands.js';

// One record of every ending: last-run.json, the exit code and `ralph status` agree after a run that
// ended in its loop, after a start refused under the lock, and after a fault in ralph's own files.

const status = async (repo: Repo) =>
  JSON.parse((await runRalph(repo, ['status', '--json'])).stdout) as { lastRun: Record<string, unknown> };

describe('one record of every ending', () => {
  it("a start refused under the lock replaces the last run's record: max iterations (1), then a broken tasks.json (64)", async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([{ say: 'thinking\n' }]);
    const first = await runRalph(repo, ['run', '--max-iterations', '1']);
    expect(first.code).toBe(1);
    expect(repo.lastRun()).toMatchObject({ reason: 'max_iterations', exitCode: 1 });

    await repo.write('ralph/tasks.json', '{ "stories": [');
    const refused = await runRalph(repo, ['run']);
    expect(refused.code).toBe(64);
    expect(refused.stderr).toMatch(/^ralph: ralph\/tasks.json is not a valid task list/);
    expect(repo.lastRun()).toMatchObject({ reason: 'setup', exitCode: 64, iterations: 0 });
    expect(repo.lastRun().detail).toContain('tasks.json is not a valid task list');
    expect((await status(repo)).lastRun).toMatchObject({ reason: 'setup', exitCode: 64 });
    expect(repo.exists('ralph/.ralph-active')).toBe(false);
  });

  it('records a refused resume as max_resumes (4) and a pending BLOCKED as blocked (2)', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([{ say: 'no progress\n' }]);
    expect((await runRalph(repo, ['run', '--max-iterations', '1', '--max-resumes', '0'])).code).toBe(1);
    const resumed = await runRalph(repo, ['run', '--max-iterations', '1', '--max-resumes', '0']);
    expect(resumed.code).toBe(4);
    expect(repo.lastRun()).toMatchObject({ reason: 'max_resumes', exitCode: 4 });
    expect(repo.calls()).toBe(1);

    await repo.write('ralph/blocked.txt', '## Blocked\nneeds a database password\n');
    const blocked = await runRalph(repo, ['run', '--reset-resumes']);
    expect(blocked.code).toBe(2);
    expect(repo.lastRun()).toMatchObject({ reason: 'blocked', exitCode: 2 });
    expect(repo.lastRun().detail).toContain('needs a database password');
  });

  it('writes nothing when another run holds the lock: its record is not overwritten', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([{ say: 'thinking\n' }]);
    await runRalph(repo, ['run', '--max-iterations', '1']);
    const before = repo.read('ralph/logs/last-run.json');
    await repo.write('ralph/.ralph-active', JSON.stringify(liveLock({ iteration: 3 })));
    const lock = await holdRunLock(repo);
    const refused = await runRalph(repo, ['run']).finally(() => lock.release());
    expect(refused.code).toBe(64);
    expect(refused.stderr).toContain('another ralph run is active');
    expect(repo.read('ralph/logs/last-run.json')).toBe(before);
  });

  it('--dry-run shows the lock another run holds as FAILED, leaves it, and exits 64 like the run it previews', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const owner = spawn('sleep', ['300'], { stdio: 'ignore' });
    const pid = owner.pid!;
    const held = JSON.stringify(liveLock({ pid, startTime: processStartTime(pid), iteration: 3 }));
    await repo.write('ralph/.ralph-active', held);
    const lock = await holdRunLock(repo);
    const result = await runRalph(repo, ['run', '--dry-run']).finally(() => lock.release());
    owner.kill('SIGKILL');
    expect(result.code).toBe(64);
    const line = result.stdout.split('\n').find((text) => /^ {2}FAILED {3}lock {2,}/.test(text));
    expect(line?.replace(/ {2,}/g, '  ')).toBe(
      `  FAILED  lock  another ralph run is active in this repository (pid ${pid}, iteration 3) — wait for it to finish or stop it (kill ${pid}); ralph/.ralph-active is removed when it ends`,
    );
    expect(repo.read('ralph/.ralph-active')).toBe(held);
  });

  it('writes the reason and exit code of a refused start to $GITHUB_OUTPUT', async () => {
    const repo = await makeRepo({ tasksText: '{ "stories": [' });
    const output = join(repo.root, '.git/github-output');
    const refused = await runRalph(repo, ['run'], { env: { GITHUB_ACTIONS: 'true', GITHUB_OUTPUT: output } });
    expect(refused.code).toBe(64);
    const outputs = readOutputFile(repo.read('.git/github-output'));
    expect([outputs.get('reason'), outputs.get('exit-code')]).toEqual(['setup', '64']);
    expect(outputs.get('detail')).toContain('ralph/tasks.json is not a valid task list');
    expect(refused.stdout).toMatch(/^::error title=ralph stopped::ralph: SETUP \(exit 64\)/m);
  });
});

describe('start conditions', () => {
  it('accepts a UTF-8 byte-order mark in tasks.json and config.json', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.write('ralph/tasks.json', `\uFEFF${repo.read('ralph/tasks.json')}`);
    await repo.write('ralph/config.json', '\uFEFF{ "maxIterations": 2 }\n');
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'saved by a Windows editor');
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it.each([
    ['empty', '  \n\n', /prompt file ralph\/prompt.md is empty/],
    ['NUL', 'Implement\0 the story.\n', /prompt file ralph\/prompt.md contains a NUL byte \(line 1\)/],
  ])('refuses an %s prompt with 64, in a real run and in --dry-run', async (_name, text, message) => {
    const repo = await makeRepo();
    await repo.write('ralph/prompt.md', text);
    for (const args of [['run'], ['run', '--dry-run']]) {
      const result = await runRalph(repo, args);
      expect(result.code).toBe(64);
      expect(result.stderr).toMatch(message);
    }
    expect(repo.calls()).toBe(0);
  });

  it('refuses uncommitted changes outside ralph/, listing ten, unless allowed by flag or variable', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    for (let n = 1; n <= 12; n++) await repo.write(`note-${String(n).padStart(2, '0')}.txt`, 'mine\n');
    await repo.write('README.md', 'edited\n');
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const refused = await runRalph(repo, ['run']);
    expect(refused.code).toBe(64);
    expect(refused.stderr).toContain('the work tree has uncommitted changes outside ralph/: README.md, note-01.txt');
    expect(refused.stderr).toContain('note-09.txt and 3 more — commit or stash them');
    expect(repo.lastRun()).toMatchObject({ reason: 'setup', exitCode: 64 });
    expect(repo.calls()).toBe(0);

    expect((await runRalph(repo, ['run', '--dry-run', '--allow-dirty'])).code).toBe(0);
    expect((await runRalph(repo, ['run'], { env: { RALPH_ALLOW_DIRTY: '1' } })).code).toBe(0);
  });

  it("lets a run resume over what the previous run left uncommitted, but not over a person's edit since", async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([{ files: { 'half-done.ts': 'export const x = 1;\n' }, say: 'not finished\n' }]);
    expect((await runRalph(repo, ['run', '--max-iterations', '1'])).code).toBe(1);
    expect(repo.git('status', '--porcelain')).toContain('half-done.ts');

    await repo.steps([{ say: 'still thinking\n' }]);
    expect((await runRalph(repo, ['run', '--max-iterations', '1'])).code).toBe(1);

    await repo.write('half-done.ts', 'export const x = 2; // changed by hand\n');
    const refused = await runRalph(repo, ['run', '--max-iterations', '1']);
    expect(refused.code).toBe(64);
    expect(refused.stderr).toContain('uncommitted changes outside ralph/: half-done.ts');
  });

  it.each([
    ['merge', ['merge', 'other'], 'a merge is in progress', '`git merge --abort`'],
    ['rebase', ['rebase', 'other'], 'a rebase is in progress', '`git rebase --abort`'],
    ['cherry-pick', ['cherry-pick', 'other'], 'a cherry-pick is in progress', '`git cherry-pick --abort`'],
  ])('refuses a %s in progress, always, naming the command that ends it', async (_name, command, what, abort) => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    repo.git('checkout', '-q', '-b', 'other');
    await repo.write('conflict.txt', 'theirs\n');
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'theirs');
    repo.git('checkout', '-q', '-');
    await repo.write('conflict.txt', 'ours\n');
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'ours');
    expect(() => repo.git(...command)).toThrow();
    const refused = await runRalph(repo, ['run', '--allow-dirty']);
    expect(refused.code).toBe(64);
    expect(refused.stderr).toContain(what);
    expect(refused.stderr).toContain(abort);
    expect(repo.calls()).toBe(0);
  });
});

describe("faults in ralph's own files end the run (io_error, 74), never crash it", () => {
  const mounts: string[] = [];
  const immutable: string[] = [];
  afterEach(async () => {
    for (const path of immutable.splice(0)) execFileSync('chattr', ['-i', path]);
    for (const dir of mounts.splice(0)) execFileSync('umount', ['-l', dir]);
  });

  /** A repository whose summary.csv cannot be written (chattr +i): the first iteration's row fails. */
  async function unwritableSummary() {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }, { id: 'US-2' }] });
    await mkdir(join(repo.root, 'ralph/logs'));
    const csv = join(repo.root, 'ralph/logs/summary.csv');
    await writeFile(csv, '');
    execFileSync('chattr', ['+i', csv]);
    immutable.push(csv);
    await repo.steps([{ implement: true }]);
    return { repo, csv };
  }

  it('an unwritable summary.csv (chattr +i) ends the run with the path and EPERM; last-run.json says io_error', async () => {
    const { repo, csv } = await unwritableSummary();
    const result = await runRalph(repo, ['run']);
    expect(result.code).toBe(74);
    expect(result.stderr).toMatch(
      new RegExp(`^ralph: cannot write ${csv}: EPERM \\(operation not permitted\\) — `, 'm'),
    );
    expect(result.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(repo.lastRun()).toMatchObject({ reason: 'io_error', exitCode: 74, iterations: 1 });
    expect(repo.exists('ralph/.ralph-active')).toBe(false);
    expect(repo.calls()).toBe(1);
  });

  it('a lock that cannot be written (chattr +i on ralph/) refuses the start in one line, 74, and starts no agent', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const folder = join(repo.root, 'ralph');
    execFileSync('chattr', ['+i', folder]);
    immutable.push(folder);
    await repo.steps([{ implement: true }]);
    const result = await runRalph(repo, ['run']);
    expect(result.code).toBe(74);
    expect(result.stderr).toBe(
      `ralph: cannot write ${folder}/.ralph-active: EPERM (operation not permitted) — fix its permissions or attributes (lsattr), then run again\n`,
    );
    expect(repo.calls()).toBe(0);
  });

  it('on GitHub Actions a fault mid-iteration closes its group: the summary and the annotation are not folded into it', async () => {
    const { repo } = await unwritableSummary();
    const result = await runRalph(repo, ['run'], { env: { GITHUB_ACTIONS: 'true', CI: 'true' } });
    expect(result.code).toBe(74);
    const runner = readAsRunner(result.stdout);
    expect(runner.stopped).toBe(false);
    expect(
      runner.obeyed.map((command) => command.name).filter((name) => name !== 'stop-commands' && name !== 'resume'),
    ).toEqual(['group', 'endgroup', 'error']);
    const shown = ungroupedLines(result.stdout);
    expect(shown).toContain('Ralph Loop Summary');
    expect(shown.find((line) => line.startsWith('::error '))).toMatch(
      /^::error title=ralph stopped::ralph: .*\(exit 74\)/,
    );
  });

  it('a full disk (64k tmpfs on ralph/logs) ends the run with ENOSPC and says last-run.json could not be written', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const logs = join(repo.root, 'ralph/logs');
    await mkdir(logs);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', logs]);
    mounts.push(logs);
    await repo.steps([{ say: `${'x'.repeat(200_000)}\n` }]);
    const result = await runRalph(repo, ['run', '--quiet']);
    expect(result.code).toBe(74);
    expect(result.stderr).toMatch(
      new RegExp(`^ralph: cannot write ${logs}/iteration-001\\.(log|jsonl): ENOSPC \\(no space left on device\\)`, 'm'),
    );
    expect(result.stderr).toMatch(/last-run\.json could not be written: ENOSPC/);
    expect(result.stderr).not.toMatch(/internal error/);
    expect(repo.exists('ralph/.ralph-active')).toBe(false);
  });

  it('recreates ralph/logs removed during the run', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }, { id: 'US-2' }] });
    const wrapper = join(repo.root, 'ralph/agent.sh');
    await writeFile(wrapper, '#!/bin/sh\nrm -rf ralph/logs\nexec claude "$@"\n');
    await chmod(wrapper, 0o755);
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run', '--agent-bin', wrapper]);
    expect(result.stderr).not.toMatch(/internal error/);
    expect(result.code).toBe(0);
    expect(repo.csvRows().at(-1)?.[0]).toBe('2');
    expect(repo.lastRun()).toMatchObject({ reason: 'complete', exitCode: 0, iterations: 2 });
  });

  it.each([
    ['ralph/logs', 'ralph/logs'],
    ['ralph/', 'ralph'],
  ])(
    'refuses a symlinked %s (74) before the agent is called: ralph writes only inside the repository',
    async (name, linked) => {
      const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
      const elsewhere = await mkdtemp(join(tmpdir(), 'ralph-e2e-elsewhere-'));
      const source = join(repo.root, linked);
      if (linked === 'ralph') {
        execFileSync('cp', ['-a', `${source}/.`, elsewhere]);
        repo.git('rm', '-q', '-r', '--cached', 'ralph');
        repo.git('commit', '-q', '-m', 'ralph/ lives elsewhere');
        await rm(source, { recursive: true });
      }
      await symlink(elsewhere, source);
      await repo.steps([{ implement: true, completeWhenDone: true }]);
      const result = await runRalph(repo, ['run']);
      // A linked ralph/ is met first at its task list, which ralph reads only inside the repository.
      expect(result.stderr).toContain(
        linked === 'ralph'
          ? `ralph: ralph/tasks.json leads outside the repository, to ${await realpath(elsewhere)}/tasks.json`
          : `ralph: ${name.replace(/\/$/, '')} is a symbolic link (to ${elsewhere})`,
      );
      expect(result.code).toBe(74);
      expect(repo.calls()).toBe(0);
      await rm(elsewhere, { recursive: true, force: true });
    },
  );
});
