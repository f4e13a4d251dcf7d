// Scenario 4: 1,000 iterations. The agent stamps the time it starts and ends, so the gap from
// one call's end to the next call's start is exactly what the loop did in between; the median
// gap of the last 100 iterations over that of the first 100 shows whether that work grows.
// Medians, because other processes on a shared machine hit single iterations, while work that
// grows with the run (re-reading a growing CSV or log) slows every one of them.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inFreshRepo, loopsForRound, runLoop } from '../lib/loops.mjs';
import { NOT_AVAILABLE, orReason } from '../lib/rows.mjs';
import { median, pairRatios, summarize } from '../lib/stats.mjs';
import { AGENTS } from '../lib/workspace.mjs';

const GROWTH_LIMIT = 1.1;

/** The loop's time between consecutive agent calls, in ms, from the agent's stamps. */
export function gapsBetweenCalls(/** @type {string} */ stamps) {
  const starts = [];
  const ends = [];
  for (const line of stamps.split('\n')) {
    const [kind, time] = line.split(' ');
    // $EPOCHREALTIME uses the locale's decimal mark; LC_ALL=C is set, but be safe.
    const ms = Number(time?.replace(',', '.')) * 1000;
    if (kind === 's') starts.push(ms);
    else if (kind === 'e') ends.push(ms);
  }
  return ends.slice(0, -1).map((end, i) => starts[i + 1] - end);
}

/** @param {import('../lib/loops.mjs').Context} ctx */
export async function scaling(ctx) {
  const iterations = ctx.quick ? 30 : 1000;
  const window = ctx.quick ? 10 : 100;
  const bin = ctx.ws.agentBin(AGENTS.instantCommit);
  /** @type {Record<import('../lib/loops.mjs').Loop, { first: number[], last: number[], growth: number[] }>} */
  const runs = { ralph: { first: [], last: [], growth: [] }, reference: { first: [], last: [], growth: [] } };
  for (let round = 0; round < ctx.bigRuns; round++) {
    ctx.progress(`scaling: round ${round + 1}/${ctx.bigRuns} (${iterations} iterations)`);
    for (const loop of loopsForRound(ctx, round)) {
      await inFreshRepo(ctx, async (dir) => {
        const stampsPath = join(dir, '.bench-stamps');
        const env = ctx.ws.env(bin, { BENCH_STAMPS: stampsPath });
        await runLoop(ctx, loop, { dir, env, iterations });
        const gaps = gapsBetweenCalls(readFileSync(stampsPath, 'utf8'));
        if (gaps.length !== iterations - 1)
          throw new Error(`scaling: expected ${iterations} agent calls from ${loop}, got ${gaps.length + 1}`);
        const first = median(gaps.slice(0, window));
        const last = median(gaps.slice(-window));
        runs[loop].first.push(first);
        runs[loop].last.push(last);
        runs[loop].growth.push(last / first);
      });
    }
  }
  const noReference = ctx.hasJq ? NOT_AVAILABLE : 'n/a (no jq)';
  const scenario = '4 scaling';
  const growth = summarize(runs.ralph.growth);
  const row = (/** @type {string} */ metric, /** @type {'first' | 'last' | 'growth'} */ key, digits = 2) => ({
    scenario,
    metric,
    ralph: orReason(summarize(runs.ralph[key]), NOT_AVAILABLE),
    peer: 'bash loop',
    peerValue: orReason(summarize(runs.reference[key]), noReference),
    ratio: orReason(summarize(pairRatios(runs.ralph[key], runs.reference[key])), noReference),
    digits,
  });
  return {
    rows: [
      row(`overhead per iteration, first ${window} of ${iterations} (ms)`, 'first'),
      row(`overhead per iteration, last ${window} of ${iterations} (ms)`, 'last'),
      row(`last ${window} / first ${window}`, 'growth', 3),
    ],
    notes: [
      `Scenario 4 measures overhead as the gap between one agent call's end and the next call's start (stamped by the agent with bash's $EPOCHREALTIME), its median over each window.`,
    ],
    targets: [
      {
        goal: `Iteration ${iterations} no slower than iteration 1: last ${window} / first ${window} ≤ ${GROWTH_LIMIT} (median)`,
        measured: growth ? `${growth.median.toFixed(3)}` : NOT_AVAILABLE,
        pass: growth ? growth.median <= GROWTH_LIMIT : undefined,
      },
    ],
  };
}
