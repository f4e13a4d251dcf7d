// Scenario 1: what each loop adds per iteration around an agent that does nothing but commit.
// overhead = (loop total − the same agent run the same number of times on its own) / iterations
import { measure } from '../lib/measure.mjs';
import { inFreshRepo, loopsForRound, runLoop } from '../lib/loops.mjs';
import { orReason, NOT_AVAILABLE } from '../lib/rows.mjs';
import { pairRatios, summarize } from '../lib/stats.mjs';
import { AGENTS } from '../lib/workspace.mjs';

/** The agent alone: called the way both loops call it, from a bash loop, output discarded. */
const AGENT_ALONE =
  'for ((i = 0; i < $1; i++)); do claude -p "$2" --dangerously-skip-permissions </dev/null >/dev/null 2>&1; done';

/** @param {import('../lib/loops.mjs').Context} ctx */
export async function loopOverhead(ctx) {
  const iterations = ctx.quick ? 5 : 200;
  const env = ctx.ws.env(ctx.ws.agentBin(AGENTS.instantCommit));
  /** @type {Record<import('../lib/loops.mjs').Loop, number[]>} */
  const overhead = { ralph: [], reference: [] };
  const alone = [];
  for (let round = 0; round < ctx.runs; round++) {
    ctx.progress(`loop overhead: round ${round + 1}/${ctx.runs} (${iterations} iterations)`);
    const aloneMs = await inFreshRepo(ctx, async (dir) => {
      const args = ['-c', AGENT_ALONE, 'agent-alone', String(iterations), 'Implement the next story.'];
      return (await measure('bash', args, { cwd: dir, env, scratch: ctx.ws.scratch })).wallMs;
    });
    alone.push(aloneMs);
    for (const loop of loopsForRound(ctx, round)) {
      const { wallMs } = await inFreshRepo(ctx, (dir) => runLoop(ctx, loop, { dir, env, iterations }));
      overhead[loop].push((wallMs - aloneMs) / iterations);
    }
  }
  const noReference = ctx.hasJq ? NOT_AVAILABLE : 'n/a (no jq)';
  const ratio = summarize(pairRatios(overhead.ralph, overhead.reference));
  const ralph = summarize(overhead.ralph);
  return {
    rows: [
      {
        scenario: '1 loop overhead',
        metric: `per-iteration overhead, ${iterations} iterations (ms)`,
        ralph: orReason(ralph, NOT_AVAILABLE),
        peer: 'bash loop',
        peerValue: orReason(summarize(overhead.reference), noReference),
        ratio: orReason(ratio, noReference),
        digits: 2,
      },
    ],
    notes: [
      `Scenario 1: the agent alone took ${summarize(alone.map((ms) => ms / iterations))?.median.toFixed(2)} ms per call (median of ${alone.length} rounds of ${iterations} calls from a bash loop); each loop's total minus that, divided by ${iterations}, is its overhead.`,
    ],
    targets: [
      {
        goal: 'Loop overhead ≤ 0.25 × the bash reference’s (median ratio)',
        measured: ratio
          ? `${ratio.median.toFixed(3)} × (${ralph?.median.toFixed(2)} ms vs ${summarize(overhead.reference)?.median.toFixed(2)} ms per iteration)`
          : noReference,
        pass: ratio ? ratio.median <= 0.25 : undefined,
      },
    ],
  };
}
