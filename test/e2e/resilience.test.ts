import { readFileSync } from 'node:fs';
import { appendFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive, makeRepo, runRalph, waitFor } from '../helpers/e2e.js';

const fixture = (name: string) => readFileSync(join(import.meta.dirname, '../fixtures/claude', name), 'utf8');

describe('ralph run: stream-json', () => {
  it('shows a readable transcript, keeps the raw lines byte for byte, and fills the CSV from the result', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([
      {
        say: 'Looking around.\n',
        tools: [{ name: 'Bash', input: { command: 'npm test' }, result: 'FAIL src/x.test.ts', isError: true }],
        events: ['(node:42) ExperimentalWarning: not JSON'],
        implement: true,
        completeWhenDone: true,
        result: { total_cost_usd: 0.25, num_turns: 7, usage: { input_tokens: 5000, output_tokens: 800 } },
      },
    ]);
    const result = await runRalph(repo, ['run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('▸ Bash  npm test');
    expect(result.stdout).toContain('✗ tool error: FAIL src/x.test.ts');
    expect(result.stdout).not.toContain('"type":"assistant"');
    const log = repo.read('ralph/logs/iteration-001.log');
    expect(log).toContain('Looking around.');
    expect(log).toContain('▸ Write src/us-1.txt');
    expect(log).toContain('[ralph] not JSON: (node:42) ExperimentalWarning: not JSON');
    const raw = repo.read('ralph/logs/iteration-001.jsonl');
    expect(
      raw
        .split('\n')
        .filter(Boolean)
        .slice(0, 1)
        .map((line) => JSON.parse(line).type),
    ).toEqual(['system']);
    expect(raw).toContain('(node:42) ExperimentalWarning: not JSON\n');
    const [header, row] = repo.csvRows();
    const cell = (name: string) => row?.[header?.indexOf(name) ?? -1];
    expect(cell('outcome')).toBe('ok');
    expect(cell('agent_exit_code')).toBe('0');
    expect(cell('cost_usd')).toBe('0.25');
    expect(cell('input_tokens')).toBe('5000');
    expect(cell('output_tokens')).toBe('800');
    expect(cell('num_turns')).toBe('7');
    expect(cell('tool_calls')).toBe('4');
    expect(repo.lastRun()).toMatchObject({ costUsd: 0.25 });
  });

  it('ignores a COMPLETE tag quoted inside a tool result', async () => {
    const repo = await makeRepo();
    await repo.steps([
      {
        tools: [
          {
            name: 'Read',
            input: { file_path: 'ralph/prompt.md' },
            result: 'say <promise>COMPLETE</promise> when done',
          },
        ],
        commit: true,
      },
    ]);
    const result = await runRalph(repo, ['run', '--max-iterations', '1']);
    expect(result.code).toBe(1);
    expect(result.stdout).not.toContain('COMPLETE rejected');
  });

  it('treats a stream that ends without a result as truncated and tells the next prompt', async () => {
    const repo = await makeRepo();
    await repo.steps([{ say: 'half', commit: true, result: false }, { commit: true }]);
    const result = await runRalph(repo, ['run', '--max-iterations', '2']);
    expect(result.code).toBe(1);
    expect(repo.csvRows()[1]?.[8]).toBe('truncated');
    expect(repo.call(2).prompt).toContain('cut off');
  });

  it('keeps plain claude -p output with --output text', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run', '--output', 'text']);
    expect(result.code).toBe(0);
    expect(repo.call(1).argv).not.toContain('stream-json');
    expect(await repo.logs()).not.toContain('iteration-001.jsonl');
  });
});

/**
 * Call 1 leaves a grandchild, says one line and goes quiet; call 2 keeps its prompt (argv and
 * stdin) for the test to read. Its files sit beside it, named after it.
 */
const QUIET_THEN_RECORDING = `#!/bin/sh
calls="$0.calls"
n=$(( $(cat "$calls" 2>/dev/null || echo 0) + 1 ))
echo "$n" > "$calls"
if [ "$n" = 1 ]; then
  sleep 300 </dev/null >/dev/null 2>&1 &
  echo $! > "$0.grandchild"
  echo thinking
  exec sleep 300
fi
{ printf '%s\\n' "$@"; cat; } > "$0.prompt-$n"
echo done
`;

describe('ralph run: time limits', () => {
  it('stops an agent that goes quiet at --idle-timeout, grandchild and all', async () => {
    const repo = await makeRepo();
    // A shell agent, not the node one: the idle timer runs from the spawn, and a node agent's
    // start-up on a loaded machine can take longer than the 1 s under test (sh takes milliseconds).
    const agent = join(repo.root, '.quiet-agent.sh');
    await appendFile(join(repo.root, '.git/info/exclude'), '/.quiet-agent*\n');
    await writeFile(agent, QUIET_THEN_RECORDING, { mode: 0o755 });
    const args = ['run', '--agent-bin', agent, '--output', 'text', '--idle-timeout', '1s', '--max-iterations', '2'];
    const result = await runRalph(repo, args);
    expect(result.code).toBe(1);
    expect(repo.csvRows()[1]?.[8]).toBe('idle_timeout');
    await waitFor(() => !isAlive(Number(readFileSync(`${agent}.grandchild`, 'utf8'))));
    expect(readFileSync(`${agent}.prompt-2`, 'utf8')).toContain('no output for too long');
  });

  it('stops a busy agent at --iteration-timeout, and a timed-out iteration that committed is progress', async () => {
    const repo = await makeRepo();
    const pidFile = join(repo.root, 'grandchild.pid');
    await repo.steps([{ grandchild: pidFile, commit: true, tickMs: 200, hang: true }]);
    const result = await runRalph(repo, ['run', '--iteration-timeout', '2s', '--max-iterations', '1']);
    expect(result.code).toBe(1);
    const row = repo.csvRows()[1];
    expect(row?.[8]).toBe('timeout');
    expect(row?.[3]).toMatch(/^[0-9a-f]{40}$/);
    expect(row?.[6]).toBe('0');
    await waitFor(() => !isAlive(Number(readFileSync(pidFile, 'utf8'))), 3000);
  });

  it('kills an agent that ignores SIGTERM after the grace period', async () => {
    const repo = await makeRepo();
    await repo.steps([{ ignoreSigterm: true, tickMs: 200, hang: true }]);
    const result = await runRalph(repo, ['run', '--iteration-timeout', '1s', '--max-iterations', '1']);
    expect(result.code).toBe(1);
    expect(repo.csvRows()[1]?.[8]).toBe('timeout');
  });

  it('stops the run at --max-runtime, stopping the running agent', async () => {
    const repo = await makeRepo();
    await repo.steps([{ tickMs: 200, hang: true }]);
    const result = await runRalph(repo, ['run', '--max-runtime', '2s']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/Exit: +MAX RUNTIME \(code 1\)/);
    expect(repo.lastRun()).toMatchObject({ reason: 'max_runtime', exitCode: 1 });
    expect(repo.csvRows()[1]?.[8]).toBe('max_runtime');
  });
});

describe('ralph run: money and failures', () => {
  it('stops at --max-cost when the summed cost reaches the cap', async () => {
    const repo = await makeRepo({ stories: ['A', 'B', 'C', 'D'].map((id) => ({ id })) });
    await repo.steps([{ implement: true, result: { total_cost_usd: 0.3 } }]);
    const result = await runRalph(repo, ['run', '--max-cost', '0.5']);
    expect(result.code).toBe(1);
    expect(repo.calls()).toBe(2);
    expect(repo.lastRun()).toMatchObject({ reason: 'max_cost', exitCode: 1, costUsd: 0.6 });
  });

  it('stops after --max-agent-failures consecutive failures, printing the last error lines', async () => {
    const repo = await makeRepo();
    await repo.steps([
      { stderr: 'fatal: the model crashed\n', exit: 1, result: { is_error: true, result: 'Error: boom' } },
    ]);
    const result = await runRalph(repo, ['run', '--max-agent-failures', '2', '--max-stuck', '9']);
    expect(result.code).toBe(4);
    expect(repo.calls()).toBe(2);
    expect(repo.lastRun()).toMatchObject({ reason: 'agent_failures', exitCode: 4 });
    expect(result.stdout).toContain('fatal: the model crashed');
    expect(repo.csvRows()[1]?.[8]).toBe('agent_error');
  });

  it("stops at once, exit 64, when the agent is not logged in (the real client's stream)", async () => {
    const repo = await makeRepo();
    await repo.steps([{ events: fixture('not-logged-in.stream.jsonl').trim().split('\n'), exit: 1, result: false }]);
    const result = await runRalph(repo, ['run']);
    expect(result.code).toBe(64);
    expect(repo.calls()).toBe(1);
    expect(repo.lastRun()).toMatchObject({ reason: 'agent_auth', exitCode: 64 });
    expect(result.stdout).toContain('Not logged in · Please run /login');
  });

  it('stops at once, exit 64, on the root refusal and names both fixes', async () => {
    const repo = await makeRepo();
    await repo.steps([{ stderr: fixture('root-refusal.stderr'), exit: 1, result: false }]);
    const result = await runRalph(repo, ['run']);
    expect(result.code).toBe(64);
    expect(repo.lastRun()).toMatchObject({ reason: 'agent_setup' });
    expect(result.stdout).toContain('IS_SANDBOX=1');
  });

  it('stops after one call, exit 64, when the agent cannot reach the API, and says how to check the network', async () => {
    const repo = await makeRepo();
    await repo.steps([
      { events: fixture('no-network-ending.stream.jsonl').trim().split('\n'), exit: 1, result: false },
    ]);
    const result = await runRalph(repo, ['run', '--max-agent-failures', '3']);
    expect(result.code).toBe(64);
    expect(repo.calls()).toBe(1);
    expect(repo.lastRun()).toMatchObject({ reason: 'agent_setup', exitCode: 64 });
    expect(repo.lastRun().detail).toMatch(
      /^API Error: Unable to connect to API \(FailedToOpenSocket\) — .*network.*HTTPS_PROXY.*NODE_EXTRA_CA_CERTS.*curl -sI https:\/\/api\.anthropic\.com/,
    );
  });

  it('stops after one call in text mode too (the client prints its error on stdout)', async () => {
    const repo = await makeRepo();
    await repo.steps([{ say: 'API Error: Unable to connect to API (FailedToOpenSocket)\n', exit: 1 }]);
    const result = await runRalph(repo, ['run', '--output', 'text']);
    expect(result.code).toBe(64);
    expect(repo.calls()).toBe(1);
    expect(result.stdout).toMatch(/Exit: +AGENT SETUP/i);
  });

  it("names the last iteration's failure in the summary whatever the ending", async () => {
    const repo = await makeRepo();
    await repo.steps([{ stderr: 'Error: the model backend returned garbage\n', exit: 1, result: false }]);
    const result = await runRalph(repo, ['run', '--max-iterations', '1']);
    expect(result.code).toBe(1);
    expect(repo.lastRun()).toMatchObject({
      reason: 'max_iterations',
      detail: "the last iteration's agent failed: Error: the model backend returned garbage",
    });
    expect(result.stdout).toMatch(
      /Exit: +MAX ITERATIONS \(code 1\)\nReason: +the last iteration's agent failed: Error: the model backend returned garbage/,
    );
  });

  it('waits out a usage limit and goes on; the limited iteration keeps its row but does not count', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const resetsAt = Math.floor(Date.now() / 1000) - 59;
    await repo.steps([
      {
        events: [
          { type: 'rate_limit_event', rate_limit_info: { status: 'rejected', rateLimitType: 'five_hour', resetsAt } },
        ],
        say: "You've hit your limit",
        exit: 1,
        result: { is_error: true, api_error_status: 429, result: "You've hit your limit" },
      },
      { implement: true, completeWhenDone: true },
    ]);
    const result = await runRalph(repo, ['run', '--max-iterations', '1'], { env: { CI: '' } });
    expect(result.code).toBe(0);
    expect(
      repo
        .csvRows()
        .slice(1)
        .map((row) => row[8]),
    ).toEqual(['usage_limit', 'ok']);
    expect(result.stdout).toContain('usage limit');
  });

  it('stops with reason usage_limit in CI (the default there is stop)', async () => {
    const repo = await makeRepo();
    await repo.steps([{ stderr: 'Claude AI usage limit reached|1751234400\n', exit: 1, result: false }]);
    const result = await runRalph(repo, ['run'], { env: { CI: 'true' } });
    expect(result.code).toBe(1);
    expect(repo.lastRun()).toMatchObject({ reason: 'usage_limit', resetsAt: '2025-06-29T22:00:00.000Z' });
  });

  it('ignores a usage-limit phrase inside a tool result', async () => {
    const repo = await makeRepo();
    await repo.steps([
      {
        tools: [
          {
            name: 'Read',
            input: { file_path: 'notes.md' },
            result: "You've hit your limit · resets 5am (Europe/Amsterdam)",
          },
        ],
        exit: 1,
        result: { is_error: true, result: 'Error: tests failed' },
      },
    ]);
    const result = await runRalph(repo, ['run', '--max-agent-failures', '1']);
    expect(result.code).toBe(4);
    expect(repo.csvRows()[1]?.[8]).toBe('agent_error');
  });
});

describe('ralph run: repetition', () => {
  it('stops an iteration repeating the same tool call (whatever the key order) and tells the next prompt', async () => {
    const repo = await makeRepo();
    const calls = [
      { command: 'npm test', timeout: 60, description: 'run tests' },
      { timeout: 60, description: 'run tests', command: 'npm test' },
      { description: 'run tests', command: 'npm test', timeout: 60 },
    ];
    await repo.steps([
      {
        tools: Array.from({ length: 6 }, (_, index) => ({
          name: 'Bash',
          input: calls[index % 3],
          result: 'FAIL: 1 test failed',
          isError: true,
        })),
        tickMs: 100,
        hang: true,
      },
      { commit: true },
    ]);
    const result = await runRalph(repo, ['run', '--max-iterations', '2', '--max-repeats', '3']);
    expect(result.code).toBe(1);
    expect(repo.csvRows()[1]?.[8]).toBe('repetition');
    const prompt = repo.call(2).prompt;
    expect(prompt).toContain('called `Bash` 3 times with the same input');
    expect(prompt).toContain('"command":"npm test"');
    expect(prompt).toContain('FAIL: 1 test failed');
    expect(repo.lastRun()).toMatchObject({ repetitions: { Bash: 1 } });
  });
});

describe('ralph run: duration and budget flags', () => {
  it.each([
    [['--max-runtime', '90'], "--max-runtime.*expected a duration like 45s, 90m, 2h or 1h30m, got '90'"],
    [['--idle-timeout', '5d'], '--idle-timeout.*expected a duration'],
    [['--max-cost', 'lots'], "--max-cost.*argument 'lots' is invalid: expected a number above 0"],
    [['--on-usage-limit', 'pray'], "--on-usage-limit.*argument 'pray' is invalid: expected one of wait, stop"],
    [['--output', 'xml'], '--output.*expected one of stream-json, text'],
  ])('rejects %j with exit 64', async (args, message) => {
    const repo = await makeRepo();
    const result = await runRalph(repo, ['run', ...args]);
    expect(result.code).toBe(64);
    expect(result.stderr).toMatch(new RegExp(message));
  });
});
