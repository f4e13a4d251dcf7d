/**
 * The real Gemini CLI through whole `ralph run` loops against a stand-in Gemini API on 127.0.0.1
 * (npm run test:agents; opt-in). Gemini CLI is pointed at it by GOOGLE_GEMINI_BASE_URL with a key
 * variable and `security.auth.selectedType: "gemini-api-key"` in its settings: the base URL alone
 * makes 0.61 take the "gateway" auth type, which its non-interactive mode refuses ("Invalid auth
 * method selected."). RALPH_REAL_GEMINI points the cases at a client of your own.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { clientOrSkip, runLoop, withoutLogins } from './loop.js';
import { endingCases } from './shared-cases.js';
import { GEMINI_USAGE, startGeminiStandIn } from './stand-in-gemini.js';
import { SCENARIOS, usageLimit, type Turn } from './turns.js';

let client: { bin: string } | { skip: string } = { skip: 'not installed yet' };
const RUN_MS = 150_000;

beforeAll(async () => {
  client = await clientOrSkip('gemini');
}, 300_000);

/** A whole run against the stand-in playing `script`, with a HOME that names the API-key login. */
async function run(script: readonly Turn[], args: string[] = [], options: { key?: string } = {}) {
  if ('skip' in client) return undefined;
  const api = await startGeminiStandIn(script);
  try {
    const env = withoutLogins({ GEMINI_API_KEY: options.key ?? 'stand-in-key', GOOGLE_GEMINI_BASE_URL: api.url });
    const home = env.HOME ?? '';
    await mkdir(join(home, '.gemini'));
    await writeFile(
      join(home, '.gemini/settings.json'),
      JSON.stringify({ security: { auth: { selectedType: 'gemini-api-key' } } }),
    );
    const outcome = await runLoop({
      kind: 'gemini',
      bin: client.bin,
      args: ['--model', 'gemini-stand-in', ...args],
      env: { ...env, RALPH_BOX_NETWORK: 'open' },
      timeoutMs: RUN_MS,
    });
    const calls = api.requests.filter((request) => request.line.includes(':streamGenerateContent')).length;
    return { ...outcome, calls };
  } finally {
    await api.close();
  }
}

describe('the real Gemini CLI, whole ralph runs against a stand-in Gemini API', () => {
  endingCases(run, RUN_MS + 30_000);

  it(
    'completes the story through its own run_shell_command call and commit, then COMPLETE',
    async (context) => {
      const outcome = await run(SCENARIOS.complete);
      if (!outcome) return context.skip();
      const { repo, result, said, rows, calls } = outcome;
      expect(result.code, said).toBe(0);
      expect(repo.git('log', '-1', '--format=%s')).toBe('US-1 by the real client');
      expect(repo.lastRun()).toMatchObject({ reason: 'complete' });
      expect(calls).toBe(2);
      // Tokens as charged: two model calls of GEMINI_USAGE; Gemini CLI reports no cost.
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        outcome: 'ok',
        cost_usd: '',
        input_tokens: String(2 * GEMINI_USAGE.promptTokenCount),
        output_tokens: String(2 * GEMINI_USAGE.candidatesTokenCount),
      });
    },
    RUN_MS + 30_000,
  );

  it(
    'stops on a usage limit with the reset the API sent (RetryInfo), read from its output',
    async (context) => {
      const now = new Date();
      const script = usageLimit(now, 60);
      const outcome = await run(script, ['--on-usage-limit', 'stop']);
      if (!outcome) return context.skip();
      expect(outcome.result.code, outcome.said).toBe(1);
      const last = outcome.repo.lastRun();
      expect(last).toMatchObject({ reason: 'usage_limit', resetSource: 'retry_after' });
      const sent = (script[0] as { resetsAt: Date }).resetsAt.getTime();
      expect(Math.abs(Date.parse(String(last.resetsAt)) - sent)).toBeLessThan(120_000);
    },
    RUN_MS + 30_000,
  );

  it(
    'with a stream that stops mid-answer, is stopped by --idle-timeout and the run ends',
    async (context) => {
      // Gemini CLI prints its `init` event at once, then waits on the stream: the silence is the stall's.
      const outcome = await run(SCENARIOS.stall, ['--idle-timeout', '30s', '--max-iterations', '1']);
      if (!outcome) return context.skip();
      expect(outcome.result.code, outcome.said).not.toBe(0);
      expect(outcome.calls).toBe(1);
      expect(outcome.rows.map((row) => row.outcome)).toEqual(['idle_timeout']);
    },
    RUN_MS + 30_000,
  );
});
