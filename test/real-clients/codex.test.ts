/**
 * The real Codex through whole `ralph run` loops, in the box when bubblewrap works here, against the
 * Responses API stand-in on 127.0.0.1 (stand-in-openai.ts), reached through a model provider of
 * its own in `~/.codex/config.toml` (`base_url`, `env_key`: no login). Point RALPH_REAL_CODEX at a
 * client of your own (default: the pinned build).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installOrSkip } from './install-client.js';
import { boxWorks, reported, runLoop, withoutLogins, type Loop } from './loop.js';
import { startOpenAiStandIn } from './stand-in-openai.js';
import type { StandIn } from './stand-in-server.js';
import { SCENARIOS, usageLimit, type Turn } from './turns.js';

const installed = await installOrSkip('codex', process.env.RALPH_REAL_CODEX);
const CODEX = installed.bin ?? '';

/**
 * A loop with the real Codex against a stand-in playing `script`. Its provider names the key
 * variable (`env_key`); OPENAI_BASE_URL names the same address for ralph's preflight and box.
 */
async function loop(script: readonly Turn[], args: string[] = [], key: string | null = 'sk-stand-in', provider = '') {
  const api = await startOpenAiStandIn(script);
  const env = withoutLogins({ OPENAI_BASE_URL: `${api.url}/v1`, OPENAI_API_KEY: key ?? undefined });
  const home = env.HOME ?? '';
  mkdirSync(join(home, '.codex'));
  writeFileSync(
    join(home, '.codex/config.toml'),
    [
      // A model Codex knows (no fallback-metadata notice) that calls its shell as a function, exec_command.
      'model = "gpt-5.5"',
      'model_provider = "stand-in"',
      '',
      '[model_providers.stand-in]',
      'name = "ralph test stand-in"',
      `base_url = "${api.url}/v1"`,
      'env_key = "OPENAI_API_KEY"',
      'wire_api = "responses"',
      provider,
      '',
    ].join('\n'),
  );
  try {
    return { ...(await runLoop({ kind: 'codex', bin: CODEX, args, env })), api };
  } finally {
    await api.close();
  }
}

const calls = (api: StandIn) => api.requests.filter((line) => line.startsWith('POST /v1/responses')).length;

/** Tokens in summary.csv are what the stand-in charged; Codex reports no cost, so none is recorded. */
function expectChargedInSummary(run: Loop & { api: StandIn }) {
  expect(reported(run.rows)).toEqual({
    inputTokens: run.api.charged.inputTokens,
    outputTokens: run.api.charged.outputTokens,
    costUsd: 0,
  });
  expect(run.rows.every((row) => row.cost_usd === '')).toBe(true);
}

describe.skipIf(!installed.bin)(
  `the real Codex through whole ralph loops (${installed.version ?? installed.skip})`,
  () => {
    it('completes a story: its own shell tool call and commit, then COMPLETE; tokens as charged', async () => {
      const run = await loop(SCENARIOS.complete);
      if (boxWorks()) expect(run.result.stdout, run.result.stderr).toContain('box: bubblewrap');
      expect(run.result.code, run.said).toBe(0);
      expect(run.repo.git('log', '-1', '--format=%s')).toBe('US-1 by the real client');
      expect(run.lastRun).toMatchObject({ reason: 'complete' });
      expect(run.api.charged).toMatchObject({ calls: 2, inputTokens: 240, outputTokens: 60 });
      expectChargedInSummary(run);
    });

    it('BLOCKED: exit 2 and the reason in ralph/blocked.txt', async () => {
      const run = await loop(SCENARIOS.blocked);
      expect(run.result.code, run.said).toBe(2);
      expect(run.lastRun).toMatchObject({ reason: 'blocked' });
      expect(run.repo.read('ralph/blocked.txt')).toContain('The stand-in cannot reach the database');
      expectChargedInSummary(run);
    });

    it('DECIDE: exit 3 and the question in ralph/decide.txt', async () => {
      const run = await loop(SCENARIOS.decide);
      expect(run.result.code, run.said).toBe(3);
      expect(run.lastRun).toMatchObject({ reason: 'decide' });
      expect(run.repo.read('ralph/decide.txt')).toContain('Postgres or SQLite for the store?');
      expectChargedInSummary(run);
    });

    // Codex says the reset as a local clock time to the minute ("try again at 8:54 PM"), read as such.
    it('a usage limit (429 usage_limit_reached) ends the run with the reset the stand-in sent, to the minute', async () => {
      const script = usageLimit(new Date(), 10);
      const resetsAt = (script[0] as { resetsAt: Date }).resetsAt.getTime();
      const run = await loop(script, ['--on-usage-limit', 'stop']);
      expect(run.result.code, run.said).toBe(1);
      expect(run.lastRun).toMatchObject({ reason: 'usage_limit' });
      // A clock time today; across midnight, a date ("Dec 7th, 2026 12:05 AM").
      expect(['clock', 'dated']).toContain(run.lastRun.resetSource);
      const read = new Date(String(run.lastRun.resetsAt)).getTime();
      expect(
        Math.abs(read - resetsAt),
        `${new Date(read).toISOString()} for ${new Date(resetsAt).toISOString()}`,
      ).toBeLessThan(60_000);
      expect(run.rows.map((row) => row.outcome)).toEqual(['usage_limit']);
      expect(calls(run.api)).toBe(1);
    });

    it('no login: the preflight (`codex login status`) ends the run (exit 64) before any call', async () => {
      const run = await loop(SCENARIOS.complete, [], null);
      expect(run.result.code, run.said).toBe(64);
      expect(run.said).toMatch(/codex login/);
      expect(calls(run.api)).toBe(0);
      expect(run.rows).toEqual([]);
    });

    it('a key the API refuses (401): one iteration (Codex retries five times), then exit 64 agent_auth', async () => {
      const run = await loop(SCENARIOS.auth);
      expect(run.result.code, run.said).toBe(64);
      expect(run.lastRun).toMatchObject({ reason: 'agent_auth' });
      expect(run.said).toMatch(/codex login/);
      expect(run.rows).toHaveLength(1);
      expect(calls(run.api)).toBeGreaterThanOrEqual(1);
    });

    // Codex retries a 503 five times with a growing backoff: its own settings keep it to one.
    it('an overloaded API (503) is an agent failure, not a limit: --max-agent-failures 1 ends the run', async () => {
      const retries = 'request_max_retries = 1\nstream_max_retries = 1';
      const run = await loop(SCENARIOS.overload, ['--max-agent-failures', '1'], undefined, retries);
      expect(run.result.code, run.said).toBe(4);
      expect(run.lastRun).toMatchObject({ reason: 'agent_failures' });
      expect(run.rows).toHaveLength(1);
    });

    it('a stream that stops mid-answer is ended by --idle-timeout; the run ends at --max-iterations', async () => {
      const run = await loop(SCENARIOS.stall, ['--idle-timeout', '30s', '--max-iterations', '1']);
      expect(run.result.code, run.said).toBe(1);
      expect(run.lastRun).toMatchObject({ reason: 'max_iterations' });
      expect(run.rows.map((row) => row.outcome)).toEqual(['idle_timeout']);
      expect(calls(run.api)).toBeGreaterThanOrEqual(1);
    });
  },
);
