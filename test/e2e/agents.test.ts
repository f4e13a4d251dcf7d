import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { chmod, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, PACKAGE_ROOT, RALPH_BIN, runRalph, type Step } from '../helpers/e2e.js';

/**
 * The loop's core endings once per agent kind, with the scripted agent speaking that kind's own
 * stream (it answers as the client whose command line it gets). Failures are the clients' real
 * words (test/fixtures/agents/, test/fixtures/claude/).
 */
const fixture = (path: string) => readFileSync(join(PACKAGE_ROOT, 'test/fixtures', path), 'utf8');
const jsonLines = (path: string) => fixture(path).split('\n').filter(Boolean);

/** A usage limit's reset as the clients print it: `3am`-style for most, Codex's `8:54 PM` local time. */
interface ResetWords {
  /** `resets 03:00 (UTC)` */
  zoned: string;
  /** `try again at 3:00 AM` (Codex: the machine's local time, no zone) */
  local: string;
}

interface Kind {
  kind: string;
  /** What the dialect's command line must hold. */
  argv: (argv: string[]) => void;
  reportsCost: boolean;
  auth: Step;
  network: Step;
  /** A call that ends on a usage limit, naming its reset in the client's own words. */
  limit: (reset: ResetWords) => Step;
  /** A call that would never work and never ends by itself: only retries, or a prompt it waits at. */
  retries: { step: Step; reason: 'agent_setup' | 'agent_auth'; said: RegExp };
}

const limitWords = (reset: ResetWords) => `You've hit your usage limit · ${reset.zoned}`;

const KINDS: Kind[] = [
  {
    kind: 'claude',
    argv: (argv) => expect(argv).toEqual(expect.arrayContaining(['-p', '--output-format', 'stream-json'])),
    reportsCost: true,
    auth: { events: jsonLines('claude/not-logged-in.stream.jsonl'), exit: 1, result: false },
    network: { events: jsonLines('claude/no-network-ending.stream.jsonl'), exit: 1, result: false },
    limit: (reset) => ({
      events: [`You've hit your limit · ${reset.zoned}`],
      exit: 1,
      result: { is_error: true, result: `You've hit your limit · ${reset.zoned}` },
    }),
    // Its real retries without a network (no HTTP status), which it keeps up for three minutes.
    retries: {
      step: { events: jsonLines('claude/no-network.stream.jsonl').slice(1), hang: true },
      reason: 'agent_setup',
      said: /Claude Code did nothing but retry for 3 seconds: API retry \d+\/10: no answer from the API/,
    },
  },
  {
    kind: 'codex',
    argv: (argv) => {
      expect(argv.slice(0, 3)).toEqual(['exec', '--json', '--dangerously-bypass-approvals-and-sandbox']);
      expect(argv.at(-1)).toMatch(/^Implement the next story/);
    },
    reportsCost: false,
    auth: {
      events: [
        {
          type: 'error',
          message: 'unexpected status 401 Unauthorized: Missing bearer or basic authentication in header',
        },
        { type: 'turn.failed', error: { message: 'unexpected status 401 Unauthorized' } },
      ],
      exit: 1,
      result: false,
    },
    network: {
      events: [
        { type: 'turn.failed', error: { message: 'stream disconnected before completion: error sending request' } },
      ],
      exit: 1,
      result: false,
    },
    limit: (reset) => ({
      events: jsonLines('agents/codex/usage-limit.jsonl')
        .slice(2)
        .map((line) => line.replaceAll('try again at 8:54 PM', reset.local)),
      exit: 1,
      result: false,
    }),
    // Its real stream without a network: reconnect notices, and then it waits for good.
    retries: {
      step: { events: jsonLines('agents/codex/no-network.jsonl').slice(2), hang: true },
      reason: 'agent_setup',
      said: /Codex did nothing but retry for 3 seconds: Reconnecting\.\.\./,
    },
  },
  {
    kind: 'gemini',
    argv: (argv) =>
      expect(argv).toEqual(expect.arrayContaining(['-p', '--output-format', 'stream-json', '--yolo', '--skip-trust'])),
    reportsCost: false,
    auth: { stderr: fixture('agents/gemini/no-auth.stderr'), exit: 41, result: false },
    network: { events: jsonLines('agents/gemini/error-result.jsonl').slice(2), exit: 1, result: false },
    limit: (reset) => ({
      events: [{ type: 'error', severity: 'error', message: limitWords(reset) }],
      exit: 1,
      result: { result: limitWords(reset) },
    }),
    // Its retries without a network go to stderr only, for about five minutes.
    retries: {
      step: {
        stderr:
          'Attempt 1 failed. Retrying with backoff... TypeError: fetch failed\nAttempt 2 failed. Retrying with backoff...\n',
        hang: true,
      },
      reason: 'agent_setup',
      said: /Gemini CLI did nothing but retry for 3 seconds: Attempt 2 failed/,
    },
  },
  {
    kind: 'opencode',
    argv: (argv) => expect(argv.slice(0, 4)).toEqual(['run', '--format', 'json', '--auto']),
    reportsCost: true,
    auth: {
      events: [
        {
          type: 'error',
          sessionID: 'ses_1',
          error: {
            name: 'LoadAPIKeyError',
            data: {
              message:
                "Anthropic API key is missing. Pass it using the 'apiKey' parameter or the ANTHROPIC_API_KEY environment variable.",
            },
          },
        },
      ],
      exit: 1,
      result: false,
    },
    network: { events: jsonLines('agents/opencode/no-network.jsonl'), exit: 1, result: false },
    limit: (reset) => ({ exit: 1, result: { result: limitWords(reset) } }),
    // It says nothing while it retries, and ends by itself (69 s seen) with its network error.
    retries: {
      step: {
        sleepMs: 4000,
        exit: 1,
        result: { result: 'Cannot connect to API: Unable to connect. Is the computer able to access the url?' },
      },
      reason: 'agent_setup',
      said: /Cannot connect to API/,
    },
  },
  {
    kind: 'amp',
    argv: (argv) => expect(argv).toEqual(expect.arrayContaining(['-x', '--stream-json', '--dangerously-allow-all'])),
    reportsCost: false,
    // Its real login prompt, on stdout, and then it waits for a code: ralph must not wait with it.
    auth: { events: fixture('agents/amp/no-login.stdout').split('\n'), hang: true },
    network: { stderr: fixture('agents/amp/no-network.stderr'), exit: 1, result: false },
    limit: (reset) => ({ exit: 1, result: { is_error: true, result: limitWords(reset) } }),
    // Without a key it waits at its login prompt for a code no one will paste.
    retries: {
      step: { events: fixture('agents/amp/no-login.stdout').split('\n'), hang: true },
      reason: 'agent_auth',
      said: /No API key found/,
    },
  },
];

/**
 * A clock time as a limit message names it, in a zone where it is not near midnight (a time just
 * past must read as now, not as tomorrow's): `minutesAgo` before now, to the minute.
 */
function resetClock(minutesAgo: number): ResetWords & { zone: string } {
  const at = new Date(Date.now() - minutesAgo * 60_000);
  // UTC+6 when UTC is within two minutes of midnight.
  const zone = at.getUTCHours() === 0 && at.getUTCMinutes() < 3 ? 'Etc/GMT-6' : 'UTC';
  const format = (hour12: boolean) =>
    // hourCycle, not hour12: en-US with hour12 false writes the hour after midnight as 24.
    new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hour: 'numeric',
      minute: '2-digit',
      hourCycle: hour12 ? 'h12' : 'h23',
    }).format(at);
  return { zone, zoned: `resets ${format(false)} (${zone})`, local: `try again at ${format(true)}` };
}

describe.each(KINDS)('ralph run --agent $kind', ({ kind, argv, reportsCost, auth, network, limit, retries }) => {
  const run = (repo: Awaited<ReturnType<typeof makeRepo>>, args: string[] = []) =>
    runRalph(repo, ['run', '--agent', kind, ...args], { env: { CI: '' } });

  it('runs to COMPLETE in its own stream, reading tool calls, tokens and (where reported) cost', async () => {
    const repo = await makeRepo();
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const result = await run(repo);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(repo.calls()).toBe(2);
    argv(repo.call(1).argv);
    const rows = repo.csvRows();
    const [header] = rows;
    const cost = header!.indexOf('cost_usd');
    const tools = header!.indexOf('tool_calls');
    const input = header!.indexOf('input_tokens');
    for (const row of rows.slice(1)) {
      expect(row[cost] !== '').toBe(reportsCost);
      expect(Number(row[input])).toBeGreaterThan(0);
      expect(Number(row[tools])).toBeGreaterThan(0);
    }
    expect(repo.lastRun()).toMatchObject({ reason: 'complete', stories: { complete: 2, total: 2 } });
  });

  it('ends BLOCKED (2) and DECIDE (3) on the promise tags in its own words', async () => {
    const blocked = await makeRepo();
    await blocked.steps([{ say: 'I cannot go on.\n<promise>BLOCKED:the staging key is missing</promise>' }]);
    expect((await run(blocked)).code).toBe(2);
    expect(blocked.lastRun()).toMatchObject({ reason: 'blocked', detail: 'the staging key is missing' });
    const decide = await makeRepo();
    await decide.steps([{ say: '<promise>DECIDE:WebSockets or polling?</promise>' }]);
    expect((await run(decide)).code).toBe(3);
    expect(decide.lastRun()).toMatchObject({ reason: 'decide', detail: 'WebSockets or polling?' });
  });

  it('stops when stuck, and on a repeated tool call', async () => {
    const stuck = await makeRepo();
    await stuck.steps([{ say: 'thinking' }]);
    expect((await run(stuck, ['--max-stuck', '2'])).code).toBe(4);
    expect(stuck.lastRun()).toMatchObject({ reason: 'stuck' });
    const repeats = await makeRepo();
    const call = { name: 'Bash', input: { command: 'npm test' }, result: 'FAIL', isError: true };
    await repeats.steps([{ tools: [call, call, call, call], sleepMs: 2000 }]);
    const result = await run(repeats, ['--max-iterations', '1', '--max-repeats', '3']);
    expect(result.stdout).toMatch(/repeat/i);
    expect(repeats.csvRows()[1]).toContain('repetition');
  });

  it('ends after one call, exit 64, when it is not logged in, with its own login fix', async () => {
    const repo = await makeRepo();
    await repo.steps([auth, { implement: true }]);
    const result = await run(repo);
    expect(result.code, result.stdout + result.stderr).toBe(64);
    expect(repo.calls()).toBe(1);
    expect(repo.lastRun()).toMatchObject({ reason: 'agent_auth' });
    expect(String(repo.lastRun().detail)).toMatch(/log .* in/);
  });

  it('ends after one call, exit 64, when it cannot reach its API, with its own network fix', async () => {
    const repo = await makeRepo();
    await repo.steps([network, { implement: true }]);
    const result = await run(repo);
    expect(result.code, result.stdout + result.stderr).toBe(64);
    expect(repo.calls()).toBe(1);
    expect(repo.lastRun()).toMatchObject({ reason: 'agent_setup' });
    expect(String(repo.lastRun().detail)).toMatch(/network/i);
  });

  it('stops on its usage limit with --on-usage-limit stop (exit 1), the reset read from its words', async () => {
    const repo = await makeRepo();
    await repo.steps([limit({ zoned: 'resets 3am (UTC)', local: 'try again at 3:00 AM' }), { implement: true }]);
    const result = await runRalph(repo, ['run', '--agent', kind, '--on-usage-limit', 'stop'], {
      env: { CI: '', TZ: 'UTC' },
    });
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(repo.calls()).toBe(1);
    expect(repo.lastRun()).toMatchObject({ reason: 'usage_limit', resetSource: 'clock' });
  });

  it('waits on its usage limit with --on-usage-limit wait until the reset it names, then goes on', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    // A reset a minute past: the wait (reset plus a minute's margin) is over as soon as it starts.
    const reset = resetClock(1);
    await repo.steps([limit(reset), { implement: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run', '--agent', kind, '--on-usage-limit', 'wait'], {
      env: { CI: '', TZ: reset.zone },
    });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/usage limit.* — waiting until /i);
    expect(repo.calls()).toBe(2);
    expect(repo.csvRows().map((row) => row[8])).toEqual(['outcome', 'usage_limit', 'ok']);
    expect(repo.lastRun()).toMatchObject({ reason: 'complete' });
  });

  it('ends a client that would never work as what it is, within the retry window, not the idle timeout', async () => {
    const repo = await makeRepo();
    await repo.steps([retries.step, { implement: true }]);
    // Ended by the retry window, not by either timeout: the reason says which (and were it the
    // 10-minute idle timeout, runRalph's own limit would fail the test first). No clock needed.
    const result = await runRalph(
      repo,
      ['run', '--agent', kind, '--idle-timeout', '10m', '--iteration-timeout', '20m'],
      {
        env: { CI: '', RALPH_TEST_RETRY_WINDOW_MS: '3000' },
      },
    );
    expect(result.code, result.stdout + result.stderr).toBe(64);
    expect(repo.calls()).toBe(1);
    expect(repo.lastRun()).toMatchObject({ reason: retries.reason });
    expect(String(repo.lastRun().detail)).toMatch(retries.said);
  });
});

describe.each(KINDS.map(({ kind }) => kind))('ralph run --agent %s, a client in the wrong mode', (kind) => {
  it('fails the iteration when the stream holds no JSON at all, quoting its first bytes', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    // A client that answers in plain text whatever ralph asks, and exits 0.
    const bin = join(await mkdtemp(join(tmpdir(), 'ralph-text-agent-')), kind);
    await writeFile(bin, '#!/bin/sh\nprintf "Sure! Here is my plan in plain words.\\nStep one.\\n"\n');
    await chmod(bin, 0o755);
    const result = await runRalph(repo, [
      'run',
      '--agent',
      kind,
      '--agent-bin',
      bin,
      '--skip-preflight',
      '--max-iterations',
      '1',
    ]);
    expect(result.code, result.stdout + result.stderr).toBe(1);
    expect(repo.csvRows()[1]?.[8]).toBe('agent_error');
    expect(result.stdout).toContain(
      'the agent printed no JSON in its machine-readable mode, so nothing it said could be read; it began ' +
        '"Sure! Here is my plan in plain words." — it was probably started in the wrong mode',
    );
  });
});

describe('what a kind cannot do is refused before any call', () => {
  it('refuses --max-cost for a client that reports no cost (64), naming what it reports and the kinds that do', async () => {
    const repo = await makeRepo();
    await repo.steps([{ implement: true }]);
    const result = await runRalph(repo, ['run', '--agent', 'codex', '--max-cost', '5']);
    expect(result.code).toBe(64);
    expect(result.stderr).toBe(
      'ralph: --max-cost cannot work with --agent codex: Codex reports tokens and turns, not what a call cost — ' +
        'cap the run with --max-iterations or --max-runtime, or use an agent that reports cost (claude or opencode)\n',
    );
    expect(repo.calls()).toBe(0);
    expect((await runRalph(repo, ['run', '--agent', 'opencode', '--max-cost', '5', '--dry-run'])).code).toBe(0);
  });

  it('refuses --sandbox for a kind the Docker sandbox does not run (64), and an unknown kind, listing the kinds', async () => {
    const repo = await makeRepo();
    const sandbox = await runRalph(repo, ['run', '--agent', 'gemini', '--sandbox']);
    expect(sandbox.code).toBe(64);
    expect(sandbox.stderr).toMatch(/--sandbox is not available for --agent gemini/);
    const unknown = await runRalph(repo, ['run', '--agent', 'cursor']);
    expect(unknown.code).toBe(64);
    expect(unknown.stderr).toMatch(/claude, codex, gemini, opencode, amp/);
    expect(repo.calls()).toBe(0);
  });

  it('--dry-run prints the exact command line of the chosen kind, the model in its own flag', async () => {
    const repo = await makeRepo();
    const result = await runRalph(repo, ['run', '--agent', 'codex', '--model', 'gpt-5-codex', '--dry-run']);
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/codex exec --json --dangerously-bypass-approvals-and-sandbox --model gpt-5-codex /);
  });
});

describe('ralph demo --agent', () => {
  it.each(['codex', 'opencode'])(
    'runs the demo with the scripted agent speaking %s, each iteration read from that stream',
    (kind) => {
      const env = { ...process.env, NO_COLOR: '1', CI: '' };
      const result = spawnSync(process.execPath, [RALPH_BIN, 'demo', '--agent', kind], { encoding: 'utf8', env });
      expect(result.status, result.stdout + result.stderr).toBe(0);
      expect(result.stdout).toMatch(/Exit: +COMPLETE \(code 0\)/);
      expect(result.stdout).not.toMatch(/not JSON/);
    },
  );
});

describe('ralph run --fallback-agent', () => {
  it('runs the fallback from the limited iteration until the reset, then the first agent again', async () => {
    const repo = await makeRepo();
    // A reset 3 s after ralph reads the limit, whenever a busy machine gets it there (a reset named
    // as a time could already have passed by then, and the fallback would never run).
    await repo.steps([
      { events: ['Claude AI usage limit reached. Retry in 3s.'], exit: 1, result: false },
      // The fallback starts after the limit was read and works past its reset, so the next
      // iteration is the first agent's again.
      { implement: true, sleepMs: 4500 },
      { implement: true, completeWhenDone: true },
    ]);
    const result = await runRalph(repo, ['run', '--fallback-agent', 'codex'], { env: { CI: '' } });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect([1, 2, 3].map((call) => repo.call(call).argv[0])).toEqual(['-p', 'exec', '-p']);
    expect(result.stdout + result.stderr).toMatch(/claude hit its usage limit until .*: codex runs this iteration/);
    const [header, ...rows] = repo.csvRows();
    const agent = header!.indexOf('agent');
    expect(rows.map((row) => row[agent])).toEqual(['codex', 'claude']);
    expect(rows.map((row) => row[header!.indexOf('outcome')])).toEqual(['ok', 'ok']);
    expect(await repo.logs()).toEqual(expect.arrayContaining(['iteration-001.log', 'iteration-001.codex.log']));
    expect(repo.lastRun()).toMatchObject({
      reason: 'complete',
      agents: { claude: { iterations: 1 }, codex: { iterations: 1 } },
    });
  });

  it('refuses a fallback that is the agent itself, or whose client is not installed, before any call (64)', async () => {
    const repo = await makeRepo();
    const same = await runRalph(repo, ['run', '--agent', 'codex', '--fallback-agent', 'codex']);
    expect(same.code).toBe(64);
    expect(same.stderr).toMatch(/--fallback-agent codex is the --agent itself/);
    // A PATH with the fake claude and node, and no gemini.
    const bin = await mkdtemp(join(tmpdir(), 'ralph-bin-'));
    await symlink(join(PACKAGE_ROOT, 'test/fixtures/bin/claude'), join(bin, 'claude'));
    const path = [bin, dirname(process.execPath), '/usr/bin', '/bin'].join(delimiter);
    const missing = await runRalph(repo, ['run', '--fallback-agent', 'gemini'], { env: { PATH: path } });
    expect(missing.code).toBe(64);
    expect(missing.stderr).toBe(
      "ralph: fallback agent executable 'gemini' not found on PATH — " +
        'install Gemini CLI (npm install -g @google/gemini-cli), or leave --fallback-agent out\n',
    );
    expect(repo.calls()).toBe(0);
  });
});

describe("a kind's own login check, before any call", () => {
  it('asks the real Codex `codex login status` and refuses with its login fix (64), with no call', async () => {
    const repo = await makeRepo();
    await repo.steps([{ implement: true }]);
    const env = { CI: '', RALPH_AGENT_VERSION: 'codex-cli 0.171.0', OPENAI_API_KEY: undefined };
    const result = await runRalph(repo, ['run', '--agent', 'codex'], { env });
    expect(result.code, result.stdout + result.stderr).toBe(64);
    expect(result.stderr).toMatch(
      /Codex is not logged in \(`codex login status` says not logged in\) — run `codex login`/,
    );
    expect(repo.calls()).toBe(0);
    const loggedIn = await runRalph(repo, ['run', '--agent', 'codex', '--dry-run'], {
      env: { ...env, RALPH_AGENT_LOGIN_STATUS: 'Logged in using ChatGPT', RALPH_SKIP_PREFLIGHT: undefined },
    });
    expect(loggedIn.stdout).toMatch(/login .*`codex login status` says logged in/);
  });
});
