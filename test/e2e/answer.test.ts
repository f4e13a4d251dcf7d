import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { holdRunLock, makeRepo, runRalph, type Repo } from '../helpers/e2e.js';

// `ralph answer` end to end: the scripted agent asks or blocks, a human answers, the loop goes on —
// by a `ralph run` typed afterwards, or at once with --run and the last run's own flags.

const ASK = { say: '<promise>DECIDE:WebSockets or polling?</promise>' };
const BLOCK = { say: '<promise>BLOCKED:the staging key is missing</promise>' };
const FINISH = { implement: true, completeWhenDone: true };

const archived = (repo: Repo) => readdirSync(join(repo.root, 'ralph/logs/answers'));

describe('ralph answer under a DECIDE', () => {
  it('writes the answer under ## Answer; the next run shows the question and the answer, then completes', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([ASK, FINISH]);
    expect((await runRalph(repo, ['run'])).code).toBe(3);

    const answered = await runRalph(repo, ['answer', 'Use polling.']);
    expect(answered.code).toBe(0);
    expect(answered.stdout).toContain('Answered the question in ralph/decide.txt:\n> WebSockets or polling?');
    const decide = repo.read('ralph/decide.txt');
    expect(decide).toMatch(
      /^## Question \(from iteration 1, [^)]+\)\nWebSockets or polling\?\n\n---\n## Answer\nUse polling\.\n$/,
    );
    const [archive] = archived(repo);
    expect(repo.read(`ralph/logs/answers/${archive}`)).toContain(
      '> WebSockets or polling?\n\n### Answer\n> Use polling.',
    );

    expect((await runRalph(repo, ['run'])).code).toBe(0);
    expect(repo.call(2).prompt).toContain(
      '  Your question:\n    > WebSockets or polling?\n  The answer:\n    > Use polling.',
    );
  });

  it('under a list --tasks chose: its state stays its own, and the next call shows the answer', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await mkdir(join(repo.root, 'ralph/lists'), { recursive: true });
    const story = { id: 'A-1', title: 'Story A-1', priority: 1, passes: false };
    await repo.write('ralph/lists/api.json', JSON.stringify({ project: 'api', stories: [story] }, null, 2));
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'a second task list');
    await repo.steps([ASK, FINISH]);
    expect((await runRalph(repo, ['run', '--tasks', 'ralph/lists/api.json'])).code).toBe(3);
    const { taskList } = JSON.parse(repo.read('.git/ralph/state.json')) as { taskList: string };

    const answered = await runRalph(repo, ['answer', '--run', 'Use polling.']);
    expect(answered.code, answered.stderr).toBe(0);
    expect(repo.call(2).prompt).toContain(
      '  Your question:\n    > WebSockets or polling?\n  The answer:\n    > Use polling.',
    );
    expect((JSON.parse(repo.read('.git/ralph/state.json')) as { taskList: string }).taskList).toBe(taskList);
  });

  it('--run goes on at once with the last run’s own flags, and records them again', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }, { id: 'US-2' }] });
    await repo.steps([ASK, { implement: true }, { implement: true }]);
    expect((await runRalph(repo, ['run', '--max-iterations', '5', '--max-stuck', '2'])).code).toBe(3);
    expect(repo.lastRun()).toMatchObject({ runArgs: ['--max-iterations', '5', '--max-stuck', '2'] });

    const result = await runRalph(repo, ['answer', '--run', 'Polling.']);
    expect(result.stdout).toContain('Going on: ralph run --max-iterations 5 --max-stuck 2');
    expect(result.code).toBe(0);
    expect(repo.calls()).toBe(3);
    expect(repo.call(2).prompt).toContain('    > Polling.');
    expect(repo.lastRun()).toMatchObject({
      reason: 'complete',
      maxIterations: 5,
      runArgs: ['--max-iterations', '5', '--max-stuck', '2'],
    });
  });

  it('--run names the flags it goes on with on one line: a line break in a value starts no line', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([ASK, FINISH]);
    const model = 'opus\n::error::planted';
    expect((await runRalph(repo, ['run', '--model', model, '--max-iterations', '4'])).code).toBe(3);
    expect(repo.lastRun()).toMatchObject({ runArgs: ['--model', model, '--max-iterations', '4'] });

    const result = await runRalph(repo, ['answer', '--run', 'Polling.']);
    expect(result.stdout).toContain('Going on: ralph run --model opus ::error::planted --max-iterations 4');
    expect(result.stdout.split('\n').filter((line) => line.startsWith('::error::planted'))).toEqual([]);
  });

  it('--run goes on with the asking run’s flags, not those of a run refused while the question waited', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([ASK, { implement: true }]);
    expect((await runRalph(repo, ['run', '--max-iterations', '4', '--max-stuck', '2'])).code).toBe(3);
    // Looks in the meantime, refused for the question or for a typo of their own: each record keeps the asker's flags.
    const look = await runRalph(repo, ['run']);
    expect(look.code).toBe(3);
    expect(repo.lastRun()).toMatchObject({ reason: 'decide', runArgs: ['--max-iterations', '4', '--max-stuck', '2'] });
    expect((await runRalph(repo, ['run', '--prompt', 'nope.md'])).code).toBe(64);
    expect((await runRalph(repo, ['run', '--max-iterations', '9'])).code).toBe(3);
    expect(repo.lastRun()).toMatchObject({ runArgs: ['--max-iterations', '4', '--max-stuck', '2'] });

    const result = await runRalph(repo, ['answer', '--run', 'Polling.']);
    expect(result.stdout).toContain('Going on: ralph run --max-iterations 4 --max-stuck 2');
    expect(result.code).toBe(0);
    expect(repo.lastRun()).toMatchObject({ reason: 'complete', maxIterations: 4 });
  });

  it('an answered question is no unproductive resume: question after question, the loop still starts', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([ASK, ASK, ASK, FINISH]);
    expect((await runRalph(repo, ['run', '--max-resumes', '1'])).code).toBe(3);
    for (const answer of ['One.', 'Two.']) {
      expect((await runRalph(repo, ['answer', answer])).code).toBe(0);
      expect((await runRalph(repo, ['run', '--max-resumes', '1'])).code).toBe(3);
    }
    expect((await runRalph(repo, ['answer', '--run', 'Three.'])).code).toBe(0);
    expect(repo.calls()).toBe(4);
  });

  it('takes the answer from --file, and an empty answer or one given twice is refused (64)', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([ASK]);
    expect((await runRalph(repo, ['run'])).code).toBe(3);
    const before = repo.read('ralph/decide.txt');

    const empty = await runRalph(repo, ['answer', '  \n ']);
    expect(empty.code).toBe(64);
    expect(empty.stderr).toBe('ralph: the answer is empty — write what the loop should do\n');
    await repo.write('answer.md', 'Polling,\nevery 5 s.\r\n');
    expect((await runRalph(repo, ['answer', 'x', '--file', 'answer.md'])).code).toBe(64);
    expect(repo.read('ralph/decide.txt')).toBe(before);

    expect((await runRalph(repo, ['answer', '--file', 'answer.md'])).code).toBe(0);
    expect(repo.read('ralph/decide.txt')).toContain('---\n## Answer\nPolling,\nevery 5 s.\n');
  });
});

describe('ralph answer under a BLOCKED', () => {
  it('records the resolution in progress.txt, clears blocked.txt, keeps the reason in the archive', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([BLOCK, FINISH]);
    expect((await runRalph(repo, ['run'])).code).toBe(2);

    const answered = await runRalph(repo, ['answer', 'The key is in STAGING_KEY now.']);
    expect(answered.code).toBe(0);
    expect(repo.exists('ralph/blocked.txt')).toBe(false);
    expect(repo.read('ralph/progress.txt')).toMatch(
      /## Unblocked by a human \([^)]+\)\nThe loop was blocked \(ralph\/blocked.txt\):\n> the staging key is missing\n\nResolution:\nThe key is in STAGING_KEY now\.\n$/,
    );
    const [archive] = archived(repo);
    expect(repo.read(`ralph/logs/answers/${archive}`)).toContain(
      '### Blocked (ralph/blocked.txt)\n> the staging key is missing\n\n### Answer\n> The key is in STAGING_KEY now.',
    );

    expect((await runRalph(repo, ['run'])).code).toBe(0);
    expect(repo.calls()).toBe(2);
    expect(repo.call(2).prompt).toContain(
      '  The block:\n    > the staging key is missing\n  The resolution:\n    > The key is in STAGING_KEY now.',
    );
  });

  it('--run goes on at once', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([BLOCK, FINISH]);
    expect((await runRalph(repo, ['run', '--max-iterations', '3'])).code).toBe(2);
    const result = await runRalph(repo, ['answer', '--run', 'Key added.']);
    expect(result.code).toBe(0);
    expect(repo.calls()).toBe(2);
    expect(repo.lastRun()).toMatchObject({ reason: 'complete', maxIterations: 3 });
  });
});

describe('ralph answer refuses', () => {
  it('with nothing to answer (64), and writes nothing', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const result = await runRalph(repo, ['answer', 'Yes.']);
    expect(result.code).toBe(64);
    expect(result.stderr).toBe(
      'ralph: nothing to answer: there is neither ralph/blocked.txt nor ralph/decide.txt — the loop waits for no one: `ralph run` goes on\n',
    );
    expect(repo.exists('ralph/logs/answers')).toBe(false);
  });

  it('while a run holds the lock (64), and writes nothing: that run is not waiting', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([BLOCK]);
    expect((await runRalph(repo, ['run'])).code).toBe(2);
    const progress = repo.read('ralph/progress.txt');
    const lock = await holdRunLock(repo);
    try {
      const result = await runRalph(repo, ['answer', 'Added the key.']);
      expect(result.code).toBe(64);
      expect(result.stderr).toMatch(/^ralph: another ralph run is active in this work tree/);
    } finally {
      await lock.release();
    }
    expect(repo.exists('ralph/blocked.txt')).toBe(true);
    expect(repo.read('ralph/progress.txt')).toBe(progress);
    expect(repo.exists('ralph/logs/answers')).toBe(false);
  });

  it('a blocked.txt the agent made a link or a FIFO: refused, nothing read or written', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const secret = join(tmpdir(), `ralph-answer-secret-${process.pid}`);
    await writeFile(secret, 'ssh-private-key\n');
    await symlink(secret, join(repo.root, 'ralph/blocked.txt'));
    const linked = await runRalph(repo, ['answer', 'ok']);
    expect(linked.code).toBe(74);
    expect(linked.stderr).toContain('ralph/blocked.txt is a symbolic link');
    expect(repo.exists('ralph/progress.txt')).toBe(false);
    expect(repo.exists('ralph/logs/answers')).toBe(false);

    await rm(join(repo.root, 'ralph/blocked.txt'));
    execFileSync('mkfifo', [join(repo.root, 'ralph/decide.txt')]);
    const fifo = await runRalph(repo, ['answer', 'ok'], { timeoutMs: 15_000 });
    expect(fifo.code).toBe(74);
    expect(fifo.stderr).toContain('ralph/decide.txt is a FIFO');
  });

  it('--run with last-run.json options the agent edited: refused before anything is answered (64)', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([ASK]);
    expect((await runRalph(repo, ['run'])).code).toBe(3);
    const before = repo.read('ralph/decide.txt');
    for (const runArgs of [
      ['--exec', 'touch /tmp/x'],
      ['; touch pwned'],
      ['--max-iterations', 'many'],
      ['--agent-bin', 'sh'],
      ['--notify', `cmd:sh -c 'touch ${repo.root}/pwned'`],
      ['--notify=cmd:/usr/bin/touch pwned'],
      ['--max-iterations', '3', '--no-gates'],
      ['--skip-review'],
      ['--allow-dirty'],
      ['--skip-preflight'],
      ['--no-branch'],
      ['--box', 'none', '--agent-bin', './evil.sh'],
      ['--box=auto'],
      ['--box-write', '/'],
      ['--box-network', 'open'],
      ['--box-allow-host=evil.example'],
      ['--sandbox'],
      ['--events-file', join(tmpdir(), 'ralph-replay-events')],
      'run',
    ]) {
      const record = { ...repo.lastRun(), runArgs };
      await repo.write('.git/ralph/last-run.json', JSON.stringify(record));
      const result = await runRalph(repo, ['answer', '--run', 'Polling.']);
      expect(result.code).toBe(64);
      expect(result.stderr).toMatch(
        /^ralph: --run: \.git\/ralph\/last-run.json (holds what `ralph run` does not take|records no options|holds --[a-z-]+, which .*; ralph takes that from you|holds --box(-network)? [a-z]+, which would widen the agent's box|holds --agent-bin sh, a program found on PATH; a replay runs no program from there)/,
      );
      expect(result.stderr).toContain('— nothing was answered: answer without --run');
      expect(repo.read('ralph/decide.txt')).toBe(before);
      expect(repo.calls()).toBe(1);
    }
    expect(repo.exists('pwned')).toBe(false);
  });
});
