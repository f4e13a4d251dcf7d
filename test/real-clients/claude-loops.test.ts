/**
 * The real Claude Code through whole `ralph run` loops, in the box (docs/sandbox.md) when bubblewrap
 * works here, against the Anthropic stand-in on 127.0.0.1 (stand-in-api.ts): its own tool call and
 * commit, a BLOCKED, a DECIDE, a usage limit with the reset the stand-in sent, an authentication
 * failure, an overload and a stream that stops. Tokens and cost in summary.csv are what the
 * stand-in charged. Point RALPH_REAL_CLAUDE at a client of your own (default: the pinned build).
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installOrSkip } from './install-client.js';
import { boxWorks, reported, runLoop, withoutLogins, type Loop } from './loop.js';
import { startAnthropicStandIn, type StandIn } from './stand-in-api.js';
import { SCENARIOS, usageLimit, type Turn } from './turns.js';

const installed = await installOrSkip('claude', process.env.RALPH_REAL_CLAUDE);
const CLAUDE = installed.bin ?? '';
/** The model asked for: its list price is the stand-in's (stand-in-api.ts). */
const MODEL = ['--model', 'claude-opus-4-8'];

/** The client's login: an API key, or a subscriber's token (`claude setup-token`), whose limits are the plan's. */
type Login = 'key' | 'subscription' | 'none';

/** A loop with the real Claude Code against a stand-in playing `script`. */
async function loop(script: readonly Turn[], login: Login, args: string[] = [], extra: NodeJS.ProcessEnv = {}) {
  const api = await startAnthropicStandIn(script);
  const credentials =
    login === 'key'
      ? { ANTHROPIC_API_KEY: 'sk-ant-stand-in' }
      : login === 'subscription'
        ? { CLAUDE_CODE_OAUTH_TOKEN: 'sk-ant-oat01-stand-in' }
        : {};
  try {
    const run = await runLoop({
      kind: 'claude',
      bin: CLAUDE,
      args: [...MODEL, ...args],
      env: withoutLogins({
        ...credentials,
        ANTHROPIC_BASE_URL: api.url,
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        ...extra,
      }),
    });
    return { ...run, api };
  } finally {
    await api.close();
  }
}

/** The calls the client made to the Messages API. */
const calls = (api: StandIn) => api.requests.filter((line) => line.startsWith('POST /v1/messages')).length;

/** Tokens and cost in summary.csv are exactly what the stand-in charged. */
function expectChargedInSummary(run: Loop & { api: StandIn }) {
  const { inputTokens, outputTokens, costUsd } = reported(run.rows);
  expect({ inputTokens, outputTokens }).toEqual({
    inputTokens: run.api.charged.inputTokens,
    outputTokens: run.api.charged.outputTokens,
  });
  expect(costUsd).toBeCloseTo(run.api.charged.costUsd, 9);
}

describe.skipIf(!installed.bin)(
  `the real Claude Code through whole ralph loops (${installed.version ?? installed.skip})`,
  () => {
    it.each(boxWorks() ? ['open', 'allow-list'] : ['open'])(
      'completes a story (box network %s): its own tool call and commit, then COMPLETE; tokens and cost as charged',
      async (network) => {
        const run = await loop(SCENARIOS.complete, 'key', [], { RALPH_BOX_NETWORK: network });
        if (boxWorks()) expect(run.result.stdout, run.result.stderr).toContain('box: bubblewrap');
        expect(run.result.code, run.said).toBe(0);
        expect(run.repo.git('log', '-1', '--format=%s')).toBe('US-1 by the real client');
        expect(run.lastRun).toMatchObject({ reason: 'complete' });
        expect(calls(run.api)).toBe(2);
        expect(run.api.charged).toMatchObject({ calls: 2, inputTokens: 200, outputTokens: 40 });
        expectChargedInSummary(run);
      },
    );

    // The box holds ~/.claude/settings.json read-only and puts back ~/.claude.json's servers (docs/sandbox.md):
    // the client's own writes must neither fail on the one nor be taken for the agent's on the other.
    it("with your own state: the settings read-only, ~/.claude.json the client's to write, nothing put back", async () => {
      const home = mkdtempSync(join(tmpdir(), 'ralph-real-home-'));
      mkdirSync(join(home, '.claude'));
      writeFileSync(join(home, '.claude', 'settings.json'), '{}\n');
      writeFileSync(join(home, '.claude.json'), '{}\n');
      const run = await loop(SCENARIOS.complete, 'key', [], { HOME: home });
      expect(run.result.code, run.said).toBe(0);
      expect(run.said).not.toContain('the box removed');
      expect(run.said).not.toContain('the box put back');
      expect(readFileSync(join(home, '.claude', 'settings.json'), 'utf8')).toBe('{}\n');
      // The client's own writes there (its start count, its ids) are kept.
      expect(JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8'))).not.toEqual({});
    });

    it('BLOCKED: exit 2 and the reason in ralph/blocked.txt', async () => {
      const run = await loop(SCENARIOS.blocked, 'key');
      expect(run.result.code, run.said).toBe(2);
      expect(run.lastRun).toMatchObject({ reason: 'blocked' });
      expect(run.repo.read('ralph/blocked.txt')).toContain('The stand-in cannot reach the database');
      expectChargedInSummary(run);
    });

    it('DECIDE: exit 3 and the question in ralph/decide.txt', async () => {
      const run = await loop(SCENARIOS.decide, 'key');
      expect(run.result.code, run.said).toBe(3);
      expect(run.lastRun).toMatchObject({ reason: 'decide' });
      expect(run.repo.read('ralph/decide.txt')).toContain('Postgres or SQLite for the store?');
      expectChargedInSummary(run);
    });

    it('a usage limit (429, the unified rate-limit headers) ends the run with the reset the stand-in sent', async () => {
      const script = usageLimit(new Date(), 90);
      const resetsAt = (script[0] as { resetsAt: Date }).resetsAt;
      const run = await loop(script, 'subscription', ['--on-usage-limit', 'stop']);
      expect(run.result.code, run.said).toBe(1);
      expect(run.lastRun).toMatchObject({ reason: 'usage_limit', resetSource: 'event' });
      // The headers carry whole seconds.
      expect(new Date(String(run.lastRun.resetsAt)).getTime()).toBe(Math.floor(resetsAt.getTime() / 1000) * 1000);
      expect(run.rows.map((row) => row.outcome)).toEqual(['usage_limit']);
      expect(calls(run.api)).toBe(1);
      expectChargedInSummary(run);
    });

    it('no login: the preflight ends the run (exit 64) before any call', async () => {
      const run = await loop(SCENARIOS.complete, 'none');
      expect(run.result.code, run.said).toBe(64);
      expect(run.said).toMatch(/not logged in/);
      expect(calls(run.api)).toBe(0);
      expect(run.rows).toEqual([]);
    });

    // Claude Code retries a 401 (ten times, three minutes): CLAUDE_CODE_MAX_RETRIES, its own setting, keeps it to one.
    it('a key the API refuses (401): one iteration, then exit 64 agent_auth with the login fix', async () => {
      const run = await loop(SCENARIOS.auth, 'key', [], { CLAUDE_CODE_MAX_RETRIES: '1' });
      expect(run.result.code, run.said).toBe(64);
      expect(run.lastRun).toMatchObject({ reason: 'agent_auth' });
      expect(run.said).toMatch(/ANTHROPIC_API_KEY|\/login/);
      expect(run.rows).toHaveLength(1);
      expect(calls(run.api)).toBe(2);
    });

    it('an overloaded API (529) is an agent failure, not a limit: --max-agent-failures 1 ends the run', async () => {
      const run = await loop(SCENARIOS.overload, 'key', ['--max-agent-failures', '1'], {
        CLAUDE_CODE_MAX_RETRIES: '1',
      });
      expect(run.result.code, run.said).toBe(4);
      expect(run.lastRun).toMatchObject({ reason: 'agent_failures' });
      expect(run.said).toMatch(/overloaded/i);
      expect(run.rows).toHaveLength(1);
    });

    it('a stream that stops mid-answer is ended by --idle-timeout; the run ends at --max-iterations', async () => {
      const run = await loop(SCENARIOS.stall, 'key', ['--idle-timeout', '30s', '--max-iterations', '1']);
      expect(run.result.code, run.said).toBe(1);
      expect(run.lastRun).toMatchObject({ reason: 'max_iterations' });
      expect(run.rows.map((row) => row.outcome)).toEqual(['idle_timeout']);
      // The client met the stall (it did not time out before its call).
      expect(calls(run.api)).toBeGreaterThanOrEqual(1);
    });
  },
);
