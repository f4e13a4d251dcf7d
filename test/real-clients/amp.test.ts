/**
 * The real Amp through a whole `ralph run` against a stand-in of its own server on 127.0.0.1
 * (npm run test:agents; opt-in). Amp is pointed at another server by AMP_URL, but it has no model
 * API of its own to point elsewhere: its model calls go through Amp's server, in a protocol Amp
 * does not document. So only the server's refusal of a key is played here; the scenarios that need
 * a model (complete, blocked, decide, usage limit, a stalled stream) are skipped, saying why.
 * RALPH_REAL_AMP points the case at a client of your own.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { clientOrSkip, runLoop, withoutLogins } from './loop.js';
import { startAmpStandIn } from './stand-in-amp.js';

let client: { bin: string } | { skip: string } = { skip: 'not installed yet' };
const RUN_MS = 120_000;

beforeAll(async () => {
  client = await clientOrSkip('amp');
}, 300_000);

describe('the real Amp, a whole ralph run against a stand-in of its server', () => {
  it(
    'with a key its server refuses: the preflight passes (key set, server answers), one call, AGENT AUTH (exit 64)',
    async (context) => {
      if ('skip' in client) return context.skip();
      const server = await startAmpStandIn();
      try {
        const env = withoutLogins({ AMP_API_KEY: 'sgamp_stand_in', AMP_URL: server.url, AMP_SKIP_UPDATE_CHECK: '1' });
        const outcome = await runLoop({
          kind: 'amp',
          bin: client.bin,
          args: ['--max-iterations', '3'],
          env: { ...env, RALPH_BOX_NETWORK: 'open' },
          timeoutMs: RUN_MS,
        });
        expect(outcome.result.code, outcome.said).toBe(64);
        expect(outcome.said).toContain('Invalid or missing API key');
        expect(outcome.repo.lastRun()).toMatchObject({ reason: 'agent_auth' });
        expect(outcome.rows).toHaveLength(1);
        expect(server.requests.some((request) => request.line === 'POST /api/internal?getUserInfo')).toBe(true);
      } finally {
        await server.close();
      }
    },
    RUN_MS + 30_000,
  );

  it.skip(
    'complete, blocked, decide, usage limit, stalled stream: not testable offline — Amp has no model API to point at a ' +
      'stand-in (its model calls go through its own server, in a protocol it does not document)',
    () => undefined,
  );
});
