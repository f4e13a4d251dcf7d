import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KILL_GRACE_MS } from '../../src/process/process-group.js';
import { processStartTime } from '../../src/process/proc.js';
import {
  FAKE_BIN_DIR,
  holdRunLock,
  isAlive,
  liveLock,
  makeRepo,
  processesMarked,
  runPrefix,
  runRalph,
  waitFor,
} from '../helpers/e2e.js';

/** The user's prompt, then the mode section ralph adds. */
const PROMPT_WITH_MODE = expect.stringMatching(/^Implement the next story\.\n\n## This iteration: implement US-1\n/);

const COMPLETE = '<promise>COMPLETE</promise>';

describe('ralph run: endings and exit codes', () => {
  it('exits 0 when the agent finishes every story and says COMPLETE', async () => {
    const repo = await makeRepo();
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run']);
    expect(result.code).toBe(0);
    expect(repo.calls()).toBe(2);
    expect(result.stdout).toContain('Ralph Loop Summary');
    expect(result.stdout).toMatch(/Exit: +COMPLETE \(code 0\)/);
    expect(result.stdout).toMatch(/Iterations: +2 \/ 10/);
    expect(result.stdout).toMatch(/Stories: +2\/2 complete/);
    expect(repo.lastRun()).toMatchObject({
      reason: 'complete',
      exitCode: 0,
      iterations: 2,
      stories: { complete: 2, total: 2 },
    });
    expect(repo.exists('ralph/.ralph-active')).toBe(false);
  });

  it('exits 0 without calling the agent when every story already passes', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1', passes: true }] });
    await repo.steps([{ exit: 1 }]);
    const result = await runRalph(repo, ['run']);
    expect(result.code).toBe(0);
    expect(repo.calls()).toBe(0);
    expect(result.stdout).toMatch(/Iterations: +0 \/ 10/);
  });

  it('exits 1 at --max-iterations without completion', async () => {
    const repo = await makeRepo({ stories: [{ id: 'A' }, { id: 'B' }, { id: 'C' }] });
    await repo.steps([{ implement: true }]);
    const result = await runRalph(repo, ['run', '--max-iterations', '2']);
    expect(result.code).toBe(1);
    expect(repo.calls()).toBe(2);
    expect(result.stdout).toMatch(/Exit: +MAX ITERATIONS \(code 1\)/);
    expect(repo.lastRun()).toMatchObject({ reason: 'max_iterations', exitCode: 1 });
  });

  it('exits 2 on BLOCKED, writes blocked.txt, and refuses to start again until it is deleted', async () => {
    const repo = await makeRepo();
    await repo.steps([
      { say: 'Trying.\n<promise>BLOCKED:the staging API key is missing</promise>\n' },
      { implement: true, completeWhenDone: true },
    ]);
    const first = await runRalph(repo, ['run']);
    expect(first.code).toBe(2);
    expect(repo.read('ralph/blocked.txt')).toMatch(
      /^## Blocked \(from iteration 1, \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)\nthe staging API key is missing\n$/,
    );
    expect(repo.lastRun()).toMatchObject({ reason: 'blocked', detail: 'the staging API key is missing' });

    const refused = await runRalph(repo, ['run']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('the staging API key is missing');
    expect(refused.stderr).toContain('delete ralph/blocked.txt');
    expect(repo.calls()).toBe(1);

    await rm(join(repo.root, 'ralph/blocked.txt'));
    const resumed = await runRalph(repo, ['run']);
    expect(resumed.code).toBe(0);
  });

  it('exits 3 on DECIDE, refuses while unanswered, and hands the answer to the next run', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([
      { say: '<promise>DECIDE:WebSockets or polling?</promise>' },
      { implement: true, completeWhenDone: true },
    ]);
    const first = await runRalph(repo, ['run']);
    expect(first.code).toBe(3);
    const decide = repo.read('ralph/decide.txt');
    expect(decide).toMatch(/^## Question \(from iteration 1, .*Z\)\nWebSockets or polling\?\n\n---\n## Answer\n$/);

    const refused = await runRalph(repo, ['run']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('WebSockets or polling?');
    expect(repo.calls()).toBe(1);

    await writeFile(join(repo.root, 'ralph/decide.txt'), `${decide}Use polling.\n`);
    const answered = await runRalph(repo, ['run']);
    expect(answered.code).toBe(0);
    expect(repo.call(2).prompt).toContain('ralph/decide.txt');
    expect(repo.call(2).prompt).toContain('## Loop feedback');
  });

  it('exits 4 after --max-stuck iterations without a commit', async () => {
    const repo = await makeRepo();
    await repo.steps([{ say: 'thinking\n' }]);
    const result = await runRalph(repo, ['run', '--max-stuck', '2']);
    expect(result.code).toBe(4);
    expect(repo.calls()).toBe(2);
    expect(result.stdout).toMatch(/Exit: +STUCK \(code 4\)/);
    expect(result.stdout).toMatch(/Stuck iters: +2/);
  });

  it('resets the stuck count on a commit: 2 stuck, 1 commit, 2 stuck goes on past the 4th', async () => {
    const repo = await makeRepo({ stories: [{ id: 'A' }, { id: 'B' }] });
    await repo.steps([{}, {}, { commit: true }, {}, {}, {}]);
    const result = await runRalph(repo, ['run', '--max-stuck', '3']);
    expect(result.code).toBe(4);
    expect(repo.calls()).toBe(6);
    expect(
      repo
        .csvRows()
        .slice(1)
        .map((row) => row[6]),
    ).toEqual(['1', '2', '0', '1', '2', '3']);
  });

  it('rejects COMPLETE while a story fails, tells the agent which, and goes on', async () => {
    const repo = await makeRepo();
    await repo.steps([
      { implement: true, say: `${COMPLETE}\n` },
      { implement: true, completeWhenDone: true },
    ]);
    const result = await runRalph(repo, ['run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('COMPLETE rejected: stories still failing: US-2');
    expect(repo.call(2).prompt).toContain('US-2 (Story US-2)');
  });

  it('honours a COMPLETE tag split across two writes', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([{ implement: true, say: ['all done <prom', 'ise>COMPL', 'ETE</promise>\n'], pauseMs: 150 }]);
    const result = await runRalph(repo, ['run']);
    expect(result.code).toBe(0);
    expect(repo.calls()).toBe(1);
  });

  it('treats an empty BLOCKED reason as no signal', async () => {
    const repo = await makeRepo();
    await repo.steps([{ say: '<promise>BLOCKED:</promise>', commit: true }]);
    const result = await runRalph(repo, ['run', '--max-iterations', '2']);
    expect(result.code).toBe(1);
    expect(repo.exists('ralph/blocked.txt')).toBe(false);
    expect(repo.call(2).prompt).toContain('<promise>BLOCKED:</promise>');
  });
});

describe('ralph run: logs, CSV and state', () => {
  it('writes each iteration log byte for byte and one CSV row per iteration', async () => {
    const repo = await makeRepo({ stories: [{ id: 'A' }, { id: 'B' }, { id: 'C' }] });
    await repo.steps([
      { say: 'out: één\n', stderr: 'err line\n', implement: true },
      { say: 'second\n' },
      { implement: true },
    ]);
    const result = await runRalph(repo, ['run', '--max-iterations', '3', '--output', 'text']);
    expect(result.code).toBe(1);
    expect(await repo.logs()).toEqual([
      'iteration-001.log',
      'iteration-002.log',
      'iteration-003.log',
      'last-run.json',
      'summary.csv',
    ]);
    const first = repo.read('ralph/logs/iteration-001.log');
    expect(first).toContain('out: één\n');
    expect(first).toContain('err line\n');
    expect(repo.read('ralph/logs/iteration-002.log')).toBe('second\n');

    const rows = repo.csvRows();
    expect(rows[0]).toEqual([
      'iteration',
      'mode',
      'duration_seconds',
      'commit_hash',
      'stories_complete',
      'stories_total',
      'stuck_count',
      'timestamp',
      'outcome',
      'agent_exit_code',
      'cost_usd',
      'input_tokens',
      'output_tokens',
      'num_turns',
      'tool_calls',
      'agent',
      'story',
    ]);
    expect(rows).toHaveLength(4);
    const [one, two, three] = rows.slice(1);
    expect(rows.slice(1).map((row) => row[15])).toEqual(['claude', 'claude', 'claude']);
    expect(one?.[0]).toBe('1');
    expect(one?.[1]).toBe('implement');
    expect(one?.[3]).toMatch(/^[0-9a-f]{40}$/);
    expect(one?.slice(4, 7)).toEqual(['1', '3', '0']);
    expect(two?.[3]).toBe('');
    expect(two?.[6]).toBe('1');
    expect(three?.[3]).toBe(repo.git('rev-parse', 'HEAD'));
    expect(three?.[7]).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    // The loop's own files are ignored: the tree stays clean.
    expect(repo.git('status', '--porcelain')).toBe('');
  });

  it('continues iteration numbers across runs without overwriting a log or repeating a row', async () => {
    const repo = await makeRepo({ stories: [{ id: 'A' }, { id: 'B' }, { id: 'C' }] });
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    expect((await runRalph(repo, ['run', '--max-iterations', '1'])).code).toBe(1);
    expect((await runRalph(repo, ['run', '--max-iterations', '1'])).code).toBe(1);
    const last = await runRalph(repo, ['run']);
    expect(last.code).toBe(0);
    expect(last.stdout).toMatch(/Iterations: +1 \/ 10/);
    expect(
      repo
        .csvRows()
        .slice(1)
        .map((row) => row[0]),
    ).toEqual(['1', '2', '3']);
    expect(await repo.logs()).toContain('iteration-003.log');
    expect(repo.lastRun()).toMatchObject({ firstIteration: 3, lastIteration: 3 });
  });

  it('counts the first commit of a repository with no commit yet as progress', async () => {
    const repo = await makeRepo({ unborn: true, stories: [{ id: 'US-1' }] });
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run']);
    expect(result.code).toBe(0);
    expect(repo.csvRows()[1]?.[3]).toBe(repo.git('rev-parse', 'HEAD'));
  });

  it('keeps the partial output and the row of an agent that crashes mid-stream', async () => {
    const repo = await makeRepo();
    await repo.steps([{ say: 'half a thought', stderr: 'Segmentation fault\n', exit: 139 }]);
    const result = await runRalph(repo, ['run', '--max-iterations', '1']);
    expect(result.code).toBe(1);
    expect(repo.read('ralph/logs/iteration-001.log')).toContain('half a thought');
    expect(repo.csvRows()).toHaveLength(2);
    expect(result.stdout).toContain('agent exit 139');
  });

  it('sends the prompt as one argument with stdin closed, and without CLAUDECODE', async () => {
    const repo = await makeRepo();
    await repo.steps([{ implement: true }]);
    await runRalph(repo, ['run', '--max-iterations', '1'], { env: { CLAUDECODE: '1' } });
    const call = repo.call(1);
    expect(call.argv).toEqual([
      '-p',
      PROMPT_WITH_MODE,
      '--dangerously-skip-permissions',
      '--output-format',
      'stream-json',
      '--verbose',
    ]);
    expect(call.claudecode).toBeNull();
  });

  it('sends a prompt over 100 KB on stdin', async () => {
    const repo = await makeRepo();
    const big = `${'x'.repeat(150 * 1024)}\n`;
    await writeFile(join(repo.root, 'ralph/prompt.md'), big);
    await repo.steps([{ implement: true }]);
    await runRalph(repo, ['run', '--max-iterations', '1']);
    expect(repo.call(1).argv).toEqual([
      '-p',
      '--dangerously-skip-permissions',
      '--output-format',
      'stream-json',
      '--verbose',
    ]);
    expect(repo.call(1).prompt.startsWith(big.trimEnd())).toBe(true);
  });

  it('uses --prompt and --agent-bin when given', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await writeFile(join(repo.root, 'other-prompt.md'), 'Other prompt.\n');
    const wrapper = join(repo.root, 'my-agent.sh');
    await writeFile(wrapper, `#!/bin/sh\necho wrapped >&2\nexec claude "$@"\n`);
    await chmod(wrapper, 0o755);
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'the prompt and the agent wrapper');
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run', '--prompt', 'other-prompt.md', '--agent-bin', './my-agent.sh']);
    expect(result.code).toBe(0);
    expect(repo.call(1).prompt).toMatch(/^Other prompt\.\n\n## This iteration: implement US-1/);
    expect(repo.read('ralph/logs/iteration-001.log')).toContain('wrapped');
  });
});

describe('ralph run: help', () => {
  it.each([[['run', '--help']], [['help', 'run']]])('%j lists every run option and exits 0', async (args) => {
    const repo = await makeRepo();
    const result = await runRalph(repo, args);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: ralph run [options]');
    expect(result.stdout).toMatch(/--max-iterations <n> +iterations this run may start \(default: 10;/);
    // The run's own switches first, then the options that also have a variable and a config key.
    const flags = [...result.stdout.matchAll(/^ {2}(--[a-z-]+)/gm)].map(([, flag]) => flag);
    expect(flags.slice(0, 9)).toEqual([
      '--dry-run',
      '--no-gates',
      '--reset-resumes',
      '--accept-removed',
      '--accept-approvals',
      '--worktree',
      '--from',
      '--max-iterations',
      '--max-stuck',
    ]);
  });

  it('shows the help of a subcommand of a subcommand', async () => {
    const repo = await makeRepo();
    const result = await runRalph(repo, ['help', 'hook', 'stop']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Usage: ralph hook stop');
  });

  it.each([[['nope']], [['hook', 'nope']]])('refuses help for %j, which does not exist', async (names) => {
    const repo = await makeRepo();
    const result = await runRalph(repo, ['help', ...names]);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain(`unknown command '${names.join(' ')}'`);
  });
});

describe('ralph: the command line as a whole', () => {
  it('a bare --help lists every command', async () => {
    const repo = await makeRepo();
    const result = await runRalph(repo, ['--help']);
    expect(result.code).toBe(0);
    const commands = [...result.stdout.matchAll(/^ {2}([a-z]+)\b/gm)].map(([, name]) => name);
    expect(commands).toEqual([
      'run',
      'init',
      'archive',
      'status',
      'lists',
      'worktrees',
      'report',
      'answer',
      'demo',
      'integrate',
      'hook',
      'help',
    ]);
  });

  it('a mistyped command is refused with the one it was likely meant to be', async () => {
    const repo = await makeRepo();
    const result = await runRalph(repo, ['stauts']);
    expect(result.code).toBe(64);
    expect(result.stderr).toBe("ralph: unknown command 'stauts' (did you mean status?) — see `ralph --help`\n");
  });
});

describe('ralph run: refused starts and bad input (exit 64, no agent call)', () => {
  it.each([
    [['--max-iterations', 'abc'], /--max-iterations.*argument 'abc' is invalid: expected a whole number ≥ 1/],
    [['--max-iterations', '-3'], /--max-iterations/],
    [['--max-stuck', '0'], /--max-stuck.*argument '0' is invalid/],
    [['--bogus'], /unknown option '--bogus'/],
  ])('rejects %j', async (args, message) => {
    const repo = await makeRepo();
    const result = await runRalph(repo, ['run', ...args]);
    expect(result.code).toBe(64);
    expect(result.stderr).toMatch(message);
    expect(repo.calls()).toBe(0);
  });

  it('refuses outside a git repository', async () => {
    const repo = await makeRepo();
    await rm(join(repo.root, '.git'), { recursive: true });
    const result = await runRalph(repo, ['run']);
    expect(result.code).toBe(64);
    expect(result.stderr).toMatch(/not inside a git repository.*git init/);
  });

  it('refuses without ralph/prompt.md', async () => {
    const repo = await makeRepo();
    await rm(join(repo.root, 'ralph/prompt.md'));
    const result = await runRalph(repo, ['run']);
    expect(result.code).toBe(64);
    expect(result.stderr).toMatch(/ralph\/prompt.md not found.*ralph init/);
  });

  it.each([
    ['not JSON', '{ "stories": [', /ralph\/tasks.json is not a valid task list: not valid JSON/],
    ['no stories array', '{ "project": "x" }', /needs a "stories" array/],
  ])('refuses a tasks.json that is %s', async (_name, text, message) => {
    const repo = await makeRepo({ tasksText: text });
    const result = await runRalph(repo, ['run']);
    expect(result.code).toBe(64);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.split('\n').filter(Boolean)).toHaveLength(1);
  });

  it('refuses when the agent executable is not found', async () => {
    const repo = await makeRepo();
    const result = await runRalph(repo, ['run', '--agent-bin', 'no-such-agent']);
    expect(result.code).toBe(64);
    expect(result.stderr).toMatch(/agent executable 'no-such-agent' not found on PATH/);
  });

  it('refuses when the log directory cannot be written', async () => {
    const repo = await makeRepo();
    await writeFile(join(repo.root, 'ralph/logs'), 'a file where the folder should be');
    const result = await runRalph(repo, ['run']);
    expect(result.code).toBe(64);
    expect(result.stderr).toMatch(/cannot write the log directory ralph\/logs/);
    expect(repo.calls()).toBe(0);
  });

  it('refuses while another run is alive, and takes over a stale lock with a warning', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const active = join(repo.root, 'ralph/.ralph-active');
    // A live run: the kernel's lock held (here by the test), its file naming its process (here a sleep).
    const owner = spawn('sleep', ['300'], { stdio: 'ignore' });
    const pid = owner.pid!;
    await writeFile(active, JSON.stringify(liveLock({ pid, startTime: processStartTime(pid), iteration: 4 })));
    const lock = await holdRunLock(repo);
    const refused = await runRalph(repo, ['run']).finally(() => lock.release());
    owner.kill('SIGKILL');
    expect(refused.code).toBe(64);
    expect(refused.stderr).toContain(`another ralph run is active in this repository (pid ${pid}, iteration 4)`);
    expect(repo.calls()).toBe(0);

    await writeFile(active, JSON.stringify({ pid: 2 ** 22 + 12345, iteration: 4 }));
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const resumed = await runRalph(repo, ['run']);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toContain('took over a stale ralph/.ralph-active');
    expect(repo.exists('ralph/.ralph-active')).toBe(false);
  });
});

/**
 * When the last of these processes was seen gone. A stubborn agent ended by the grace period dies
 * no sooner than KILL_GRACE_MS after its SIGTERM, which comes after the first Ctrl-C: gone sooner
 * than that after the first Ctrl-C, it was the second one that killed it. Measured to the agent's
 * end, not to ralph's exit, whose summary and clean-up a loaded machine stretches.
 */
async function whenGone(pids: number[]): Promise<number> {
  await waitFor(() => !pids.some(isAlive), 30_000);
  return Date.now();
}

describe("ralph run: interrupts and the agent's processes", () => {
  it.each([
    ['SIGINT', 130],
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)(
    'on %s stops the agent and its grandchild, writes the row, prints the summary, exits %i',
    async (signal, code) => {
      const repo = await makeRepo();
      const pidFile = join(repo.root, 'grandchild.pid');
      await repo.steps([{ grandchild: pidFile, say: 'working\n', hang: true }]);
      let sent = false;
      const result = await runRalph(repo, ['run'], {
        onStdout: (text, child) => {
          if (!sent && text.includes('working')) {
            sent = true;
            child.kill(signal);
          }
        },
      });
      expect(result.code).toBe(code);
      const grandchild = Number(readFileSync(pidFile, 'utf8'));
      await waitFor(() => !isAlive(grandchild), 3000);
      expect(result.stdout).toMatch(/Exit: +INTERRUPTED/);
      expect(repo.csvRows()).toHaveLength(2);
      expect(repo.lastRun()).toMatchObject({ reason: 'interrupted', exitCode: code });
      expect(repo.exists('ralph/.ralph-active')).toBe(false);
    },
  );

  it('kills an agent that ignores SIGTERM at once on a second Ctrl-C', async () => {
    const repo = await makeRepo();
    await repo.steps([{ ignoreSigterm: true, say: 'stubborn\n', hang: true }]);
    let agent: number[] = [];
    let firstAt = 0;
    let gone: Promise<number> | undefined;
    const result = await runRalph(repo, ['run'], {
      onStdout: (text, child) => {
        if (firstAt === 0 && text.includes('stubborn')) {
          agent = processesMarked(runPrefix(repo.call(1).marker));
          firstAt = Date.now();
          child.kill('SIGINT');
        } else if (gone === undefined && text.includes('SIGINT: stopping')) {
          // The first is being handled: this one is a second Ctrl-C, not one signal with it.
          child.kill('SIGINT');
          gone = whenGone(agent);
        }
      },
    });
    expect(result.code).toBe(130);
    expect(result.stdout).toContain('SIGINT: killing the agent or gate now');
    expect(agent.length).toBeGreaterThan(0);
    expect((await gone!) - firstAt).toBeLessThan(KILL_GRACE_MS);
  });

  it('a second Ctrl-C while the first is still ending forces the stop: exit 130, nothing of the run left', async () => {
    const repo = await makeRepo();
    const grandchildFile = join(repo.root, 'grandchild.pid');
    const daemonsFile = join(repo.root, 'daemons.pid');
    // An agent that ignores SIGTERM, with a grandchild in its group and two daemons outside it.
    await repo.steps([
      { ignoreSigterm: true, grandchild: grandchildFile, daemons: daemonsFile, say: 'stubborn\n', hang: true },
    ]);
    let agent = 0;
    let agentAliveAtSecond = false;
    let firstAt = 0;
    let gone: Promise<number> | undefined;
    const result = await runRalph(repo, ['run'], {
      env: { RALPH_CONTAINMENT: 'marker' },
      onStdout: (text, child) => {
        if (firstAt === 0 && text.includes('stubborn')) {
          // The grandchild's parent is the agent itself.
          const stat = readFileSync(`/proc/${readFileSync(grandchildFile, 'utf8').trim()}/stat`, 'utf8');
          agent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
          firstAt = Date.now();
          child.kill('SIGINT');
        } else if (gone === undefined && text.includes('SIGINT: stopping')) {
          // The first Ctrl-C is still ending: the agent has shrugged off its SIGTERM.
          agentAliveAtSecond = isAlive(agent);
          child.kill('SIGINT');
          gone = whenGone([agent]);
        }
      },
    });
    expect(agentAliveAtSecond).toBe(true);
    expect(result.code).toBe(130);
    expect(result.stdout).toContain('SIGINT: killing the agent or gate now');
    expect((await gone!) - firstAt).toBeLessThan(KILL_GRACE_MS);
    // Gone by the time ralph exits: the agent, its grandchild, the daemons, anything with the run's marker.
    expect(isAlive(agent)).toBe(false);
    expect(isAlive(Number(readFileSync(grandchildFile, 'utf8')))).toBe(false);
    const daemons = readFileSync(daemonsFile, 'utf8').split('\n').filter(Boolean).map(Number);
    expect(daemons).toHaveLength(2);
    expect(daemons.filter(isAlive)).toEqual([]);
    expect(processesMarked(runPrefix(repo.call(1).marker))).toEqual([]);
    expect(result.stdout).toMatch(/Exit: +INTERRUPTED/);
    expect(repo.csvRows()).toHaveLength(2);
    expect(repo.lastRun()).toMatchObject({ reason: 'interrupted', exitCode: 130 });
    expect(repo.exists('ralph/.ralph-active')).toBe(false);
  });

  it.each(['status', 'branch', 'switch'])(
    'on SIGTERM stops a git %s that hangs (a stale lock, a slow hook) and ends interrupted instead of waiting',
    async (command) => {
      const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
      // `git branch --list` and `git switch` run only to enter the task list's branch.
      if (command !== 'status') {
        const tasks = JSON.parse(repo.read('ralph/tasks.json')) as Record<string, unknown>;
        await repo.write('ralph/tasks.json', JSON.stringify({ ...tasks, branchName: 'ralph/feature' }, null, 2));
        repo.git('commit', '-qam', 'a branch for the task list');
      }
      await repo.steps([{ implement: true }]);
      // A git first on PATH whose `git <command>` hangs, recording its pid (exec keeps it) first.
      const bin = await mkdtemp(join(tmpdir(), 'ralph-hanging-git-'));
      const hung = join(bin, 'hung.pid');
      const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
      await writeFile(
        join(bin, 'git'),
        `#!/bin/sh\nif [ "$1" = ${command} ]; then echo $$ > ${hung}; exec sleep 120; fi\nexec ${realGit} "$@"\n`,
      );
      await chmod(join(bin, 'git'), 0o755);
      const result = await runRalph(repo, ['run'], {
        env: { PATH: `${bin}:${FAKE_BIN_DIR}:${process.env.PATH ?? ''}` },
        onStart: (child) => void waitFor(() => existsSync(hung), 30_000).then(() => child.kill('SIGTERM')),
      });
      expect(result.stderr).not.toMatch(/internal error/);
      expect(result.code).toBe(143);
      expect(repo.lastRun()).toMatchObject({ reason: 'interrupted', exitCode: 143 });
      expect(repo.exists('ralph/.ralph-active')).toBe(false);
      expect(repo.calls()).toBe(0);
      const git = Number(readFileSync(hung, 'utf8'));
      await waitFor(() => !isAlive(git), 10_000);
      await rm(bin, { recursive: true, force: true });
    },
  );

  it('kills background processes the agent leaves behind when it exits normally', async () => {
    const repo = await makeRepo();
    const pidFile = join(repo.root, 'server.pid');
    await repo.steps([{ grandchild: pidFile, implement: true }]);
    const result = await runRalph(repo, ['run', '--max-iterations', '1']);
    expect(result.code).toBe(1);
    const server = Number(readFileSync(pidFile, 'utf8'));
    await waitFor(() => !isAlive(server), 3000);
  });
});

describe('ralph run: git hygiene', () => {
  it("adds the loop's files to .git/info/exclude only where .gitignore does not cover them", async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await writeFile(join(repo.root, '.gitignore'), 'ralph/logs/\n');
    repo.git('add', '.gitignore');
    repo.git('commit', '-q', '-m', 'ignore the logs');
    await mkdir(join(repo.root, 'ralph/logs'), { recursive: true });
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    expect((await runRalph(repo, ['run'])).code).toBe(0);
    const exclude = repo.read('.git/info/exclude');
    expect(exclude).toContain('/ralph/blocked.txt');
    expect(exclude).not.toContain('/ralph/logs/');
    expect(repo.read('.gitignore')).toBe('ralph/logs/\n');
  });
});
