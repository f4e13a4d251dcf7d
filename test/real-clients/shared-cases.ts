/**
 * The cases every client with a stand-in model API meets alike: the endings ralph reads from the
 * agent's own text (BLOCKED, DECIDE) and from the API's refusal of a key (AGENT AUTH).
 */
import { expect, it } from 'vitest';
import type { Loop } from './loop.js';
import { SCENARIOS, type Turn } from './turns.js';

/** A whole run against the stand-in playing `script`, or undefined where the client is not here. */
type RunScript = (script: readonly Turn[], args?: string[]) => Promise<Loop | undefined>;

export function endingCases(run: RunScript, timeoutMs: number): void {
  it(
    'ends BLOCKED with the reason its text gives (exit 2)',
    async (context) => {
      const outcome = await run(SCENARIOS.blocked);
      if (!outcome) return context.skip();
      expect(outcome.result.code, outcome.said).toBe(2);
      expect(outcome.lastRun).toMatchObject({ reason: 'blocked', detail: 'The stand-in cannot reach the database' });
    },
    timeoutMs,
  );

  it(
    'ends DECIDE with the question its text asks (exit 3)',
    async (context) => {
      const outcome = await run(SCENARIOS.decide);
      if (!outcome) return context.skip();
      expect(outcome.result.code, outcome.said).toBe(3);
      expect(outcome.lastRun).toMatchObject({ reason: 'decide', detail: 'Postgres or SQLite for the store?' });
    },
    timeoutMs,
  );

  it(
    'with a key the API refuses, ends AGENT AUTH after one call (exit 64)',
    async (context) => {
      const outcome = await run(SCENARIOS.auth, ['--max-iterations', '3']);
      if (!outcome) return context.skip();
      expect(outcome.result.code, outcome.said).toBe(64);
      expect(outcome.lastRun).toMatchObject({ reason: 'agent_auth' });
      expect(outcome.rows).toHaveLength(1);
    },
    timeoutMs,
  );
}
