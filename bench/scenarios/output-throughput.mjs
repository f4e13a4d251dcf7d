// Scenario 2: one iteration whose agent prints 1 GB of text as fast as it can. ralph must keep
// up with a plain `agent | tee file` and keep its memory flat; the bash loop holds it all.
import { join } from 'node:path';
import { expectLogSize, measure } from '../lib/measure.mjs';
import { inFreshRepo, loopsForRound, runLoop } from '../lib/loops.mjs';
import { NOT_AVAILABLE, orReason } from '../lib/rows.mjs';
import { pairRatios, summarize } from '../lib/stats.mjs';
import { AGENTS } from '../lib/workspace.mjs';

const PLAIN_TEE = 'claude -p "$1" --dangerously-skip-permissions </dev/null | tee "$2" >/dev/null';
const RSS_LIMIT_MB = 120;

/** @param {import('../lib/loops.mjs').Context} ctx */
export async function outputThroughput(ctx) {
  const bytes = ctx.quick ? 4e6 : 1e9;
  const label = ctx.quick ? '4 MB' : '1 GB';
  const env = ctx.ws.env(ctx.ws.agentBin(AGENTS.flood), { BENCH_BYTES: String(bytes) });
  const rate = (/** @type {number} */ wallMs) => bytes / 1e6 / (wallMs / 1000);
  /** @type {{ tee: number[], ralph: number[], reference: number[], ralphRss: number[], referenceRss: number[] }} */
  const runs = { tee: [], ralph: [], reference: [], ralphRss: [], referenceRss: [] };
  for (let round = 0; round < ctx.bigRuns; round++) {
    ctx.progress(`output throughput: round ${round + 1}/${ctx.bigRuns} (${label} of text)`);
    const tee = await inFreshRepo(ctx, (dir) =>
      measure('bash', ['-c', PLAIN_TEE, 'plain-tee', 'Implement the next story.', 'iteration.log'], {
        cwd: dir,
        env,
        scratch: ctx.ws.scratch,
      }),
    );
    runs.tee.push(rate(tee.wallMs));
    for (const loop of loopsForRound(ctx, round)) {
      const result = await inFreshRepo(ctx, async (dir) => {
        const measured = await runLoop(ctx, loop, { dir, env, iterations: 1, rss: true });
        expectLogSize(join(dir, 'ralph/logs/iteration-001.log'), bytes, loop);
        return measured;
      });
      runs[loop].push(rate(result.wallMs));
      if (result.rssMb !== undefined) runs[loop === 'ralph' ? 'ralphRss' : 'referenceRss'].push(result.rssMb);
    }
  }
  const noReference = ctx.hasJq ? NOT_AVAILABLE : 'n/a (no jq)';
  const noRss = ctx.hasTime ? NOT_AVAILABLE : 'n/a (no /usr/bin/time)';
  const vsTee = summarize(pairRatios(runs.ralph, runs.tee));
  const ralphRss = summarize(runs.ralphRss);
  const scenario = '2 text output';
  return {
    rows: [
      {
        scenario,
        metric: `${label} of text, throughput (MB/s)`,
        ralph: orReason(summarize(runs.ralph), NOT_AVAILABLE),
        peer: 'agent | tee file',
        peerValue: orReason(summarize(runs.tee), NOT_AVAILABLE),
        ratio: orReason(vsTee, NOT_AVAILABLE),
        digits: 0,
      },
      {
        scenario,
        metric: `${label} of text, throughput (MB/s)`,
        ralph: orReason(summarize(runs.ralph), NOT_AVAILABLE),
        peer: 'bash loop',
        peerValue: orReason(summarize(runs.reference), noReference),
        ratio: orReason(summarize(pairRatios(runs.ralph, runs.reference)), noReference),
        digits: 0,
      },
      {
        scenario,
        metric: `${label} of text, peak RSS (MB)`,
        ralph: orReason(ralphRss, noRss),
        peer: 'bash loop',
        peerValue: orReason(summarize(runs.referenceRss), ctx.hasJq ? noRss : noReference),
        ratio: orReason(summarize(pairRatios(runs.ralphRss, runs.referenceRss)), ctx.hasJq ? noRss : noReference),
        digits: 1,
      },
    ],
    targets: [
      {
        goal: `Output throughput ≥ 0.5 × plain \`tee\` (${label}, median ratio)`,
        measured: vsTee ? `${vsTee.median.toFixed(2)} ×` : NOT_AVAILABLE,
        pass: vsTee ? vsTee.median >= 0.5 : undefined,
      },
      {
        goal: `Peak RSS under ${RSS_LIMIT_MB} MB at ${label} of output`,
        measured: ralphRss ? `${ralphRss.max.toFixed(1)} MB (largest run)` : noRss,
        pass: ralphRss ? ralphRss.max < RSS_LIMIT_MB : undefined,
      },
    ],
  };
}
