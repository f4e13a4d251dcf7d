/**
 * The real OpenCode through whole `ralph run` loops against a stand-in Chat Completions API on
 * 127.0.0.1 (npm run test:agents; opt-in). OpenCode is pointed at it by a provider of its own
 * config, given in OPENCODE_CONFIG_CONTENT: `@ai-sdk/openai-compatible` (bundled in the client: no
 * download) with `options.baseURL`, and a model whose `cost` rates make the client report the cost
 * of the tokens the stand-in charged. RALPH_REAL_OPENCODE points the cases at a client of your own.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { clientOrSkip, runLoop, withoutLogins } from './loop.js';
import { endingCases } from './shared-cases.js';
import { CHAT_USAGE, OPENCODE_PRICE as PRICE, opencodeConfig, startChatStandIn } from './stand-in-openai-chat.js';
import { SCENARIOS, usageLimit, type Turn } from './turns.js';

let client: { bin: string } | { skip: string } = { skip: 'not installed yet' };
const RUN_MS = 240_000;
const COST_PER_CALL = (CHAT_USAGE.prompt_tokens * PRICE.input + CHAT_USAGE.completion_tokens * PRICE.output) / 1e6;

beforeAll(async () => {
  client = await clientOrSkip('opencode');
}, 300_000);

async function run(script: readonly Turn[], args: string[] = []) {
  if ('skip' in client) return undefined;
  const api = await startChatStandIn(script);
  try {
    const env = withoutLogins({ OPENCODE_CONFIG_CONTENT: opencodeConfig(api.url), OPENCODE_DISABLE_MODELS_FETCH: '1' });
    const outcome = await runLoop({
      kind: 'opencode',
      bin: client.bin,
      args,
      env: { ...env, RALPH_BOX_NETWORK: 'open' },
      timeoutMs: RUN_MS,
    });
    const calls = api.requests.filter((request) => {
      const body = request.body as { tools?: unknown[] } | undefined;
      return (body?.tools?.length ?? 0) > 0;
    }).length;
    return { ...outcome, calls };
  } finally {
    await api.close();
  }
}

describe('the real OpenCode, whole ralph runs against a stand-in Chat Completions API', () => {
  endingCases(run, RUN_MS + 30_000);

  it(
    'completes the story through its own bash tool call and commit, then COMPLETE; cost as charged',
    async (context) => {
      const outcome = await run(SCENARIOS.complete);
      if (!outcome) return context.skip();
      const { repo, result, said, rows, calls } = outcome;
      expect(result.code, said).toBe(0);
      expect(repo.git('log', '-1', '--format=%s')).toBe('US-1 by the real client');
      expect(repo.lastRun()).toMatchObject({ reason: 'complete' });
      expect(calls).toBe(2);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        outcome: 'ok',
        input_tokens: String(2 * CHAT_USAGE.prompt_tokens),
        output_tokens: String(2 * CHAT_USAGE.completion_tokens),
      });
      expect(Number(rows[0]?.cost_usd)).toBeCloseTo(2 * COST_PER_CALL, 9);
    },
    RUN_MS + 30_000,
  );

  // OpenCode 1.18.33 waits out a 429 itself, for as long as its retry-after says, and prints nothing
  // meanwhile in `run --format json` (nor in --print-logs): ralph has no words to read a reset from.
  // This pins that: the day the client says something, this fails and the dialect learns to read it.
  // OpenCode prints nothing either while it starts (tens of seconds here, offline): the idle timeout
  // has to outlast its start and a step, hence 90 s.
  it(
    'on a usage limit (429, retry-after an hour) waits silently inside the client: one call, ended by --idle-timeout',
    async (context) => {
      const outcome = await run(usageLimit(new Date(), 60), ['--idle-timeout', '90s', '--max-iterations', '1']);
      if (!outcome) return context.skip();
      expect(outcome.result.code, outcome.said).not.toBe(0);
      expect(outcome.calls).toBe(1);
      expect(outcome.rows.map((row) => row.outcome)).toEqual(['idle_timeout']);
    },
    RUN_MS + 30_000,
  );

  it(
    'with a stream that stops mid-answer, is stopped by --idle-timeout and the run ends',
    async (context) => {
      // OpenCode prints nothing while it starts (tens of seconds here, offline) nor during a step: the
      // idle timeout has to outlast both, and the stand-in must have seen the stalled call.
      const outcome = await run(SCENARIOS.stall, ['--idle-timeout', '90s', '--max-iterations', '1']);
      if (!outcome) return context.skip();
      expect(outcome.result.code, outcome.said).not.toBe(0);
      expect(outcome.calls).toBe(1);
      expect(outcome.rows.map((row) => row.outcome)).toEqual(['idle_timeout']);
    },
    RUN_MS + 30_000,
  );
});
