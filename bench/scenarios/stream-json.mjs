// Scenario 3: one iteration of 200 MB of stream-json events (many small tool calls and text
// blocks), which ralph parses, renders and logs. The bash loop only copies the raw lines.
// Each loop also runs the same iteration with a stream of a few kilobytes: the difference is the
// time the 200 MB themselves cost, without start-up (scenario 5's subject) and the agent's own
// start. That is the parse + render + log rate the target is about; a rate with start-up in it
// would change with the size of the stream.
import { join } from 'node:path';
import { expectLogSize, measure } from '../lib/measure.mjs';
import { inFreshRepo, loopsForRound, runLoop } from '../lib/loops.mjs';
import { NOT_AVAILABLE, orReason } from '../lib/rows.mjs';
import { pairRatios, summarize } from '../lib/stats.mjs';
import { planStream } from '../lib/stream-json-events.mjs';
import { AGENTS } from '../lib/workspace.mjs';

const AGENT_ALONE = 'claude -p "$1" --output-format stream-json --verbose </dev/null | cat >/dev/null';
const RATE_TARGET = 100;
const RSS_LIMIT_MB = 120;

/** @param {import('../lib/loops.mjs').Context} ctx */
export async function streamJsonThroughput(ctx) {
  const { bytes } = planStream(ctx.quick ? 4e6 : 200e6);
  const label = `${Math.round(bytes / 1e6)} MB`;
  const scenario = '3 stream-json';
  const ralphArgs = ctx.caps.streamJsonArgs;
  if (ralphArgs === undefined) {
    const why = 'n/a (stream-json not available in this build)';
    return {
      rows: [
        {
          scenario,
          metric: `${label} of events, throughput (MB/s)`,
          ralph: why,
          peer: 'bash loop',
          peerValue: why,
          ratio: why,
        },
      ],
      targets: [
        { goal: `stream-json ≥ ${RATE_TARGET} MB/s with RSS under ${RSS_LIMIT_MB} MB`, measured: why, pass: undefined },
      ],
    };
  }
  const bin = ctx.ws.agentBin(AGENTS.streamJson);
  const env = ctx.ws.env(bin, { BENCH_BYTES: String(bytes) });
  const tiny = planStream(1).bytes;
  const tinyEnv = ctx.ws.env(bin, { BENCH_BYTES: '1' });
  const rate = (/** @type {number} */ wallMs) => bytes / 1e6 / (wallMs / 1000);
  const streamRate = (/** @type {number} */ wallMs, /** @type {number} */ tinyWallMs) =>
    (bytes - tiny) / 1e6 / (Math.max(1, wallMs - tinyWallMs) / 1000);
  /** @type {Record<'agent' | 'agentRss' | 'ralph' | 'reference' | 'ralphRss' | 'referenceRss' | 'ralphStream' | 'referenceStream', number[]>} */
  const runs = {
    agent: [],
    agentRss: [],
    ralph: [],
    reference: [],
    ralphRss: [],
    referenceRss: [],
    ralphStream: [],
    referenceStream: [],
  };
  for (let round = 0; round < ctx.bigRuns; round++) {
    ctx.progress(`stream-json throughput: round ${round + 1}/${ctx.bigRuns} (${label} of events)`);
    const agent = await inFreshRepo(ctx, (dir) =>
      measure('bash', ['-c', AGENT_ALONE, 'agent-alone', 'Implement the next story.'], {
        cwd: dir,
        env,
        scratch: ctx.ws.scratch,
        rss: true,
      }),
    );
    runs.agent.push(rate(agent.wallMs));
    if (agent.rssMb !== undefined) runs.agentRss.push(agent.rssMb);
    for (const loop of loopsForRound(ctx, round)) {
      const args = loop === 'ralph' ? { ralphArgs } : {};
      const result = await inFreshRepo(ctx, async (dir) => {
        const measured = await runLoop(ctx, loop, { dir, env, iterations: 1, rss: true, ...args });
        // ralph keeps the raw lines in the .jsonl log: all of them, or it stopped the agent early.
        expectLogSize(join(dir, `ralph/logs/iteration-001.${loop === 'ralph' ? 'jsonl' : 'log'}`), bytes, loop);
        return measured;
      });
      const startOnly = await inFreshRepo(ctx, (dir) =>
        runLoop(ctx, loop, { dir, env: tinyEnv, iterations: 1, ...args }),
      );
      runs[loop].push(rate(result.wallMs));
      runs[loop === 'ralph' ? 'ralphStream' : 'referenceStream'].push(streamRate(result.wallMs, startOnly.wallMs));
      if (result.rssMb !== undefined) runs[loop === 'ralph' ? 'ralphRss' : 'referenceRss'].push(result.rssMb);
    }
  }
  const noReference = ctx.hasJq ? NOT_AVAILABLE : 'n/a (no jq)';
  const noRss = ctx.hasTime ? NOT_AVAILABLE : 'n/a (no /usr/bin/time)';
  const ralphRate = summarize(runs.ralph);
  const ralphStream = summarize(runs.ralphStream);
  const ralphRss = summarize(runs.ralphRss);
  return {
    rows: [
      {
        scenario,
        metric: `${label} of events, parse + render + log rate, start-up excluded (MB/s)`,
        ralph: orReason(ralphStream, NOT_AVAILABLE),
        peer: 'bash loop (raw copy)',
        peerValue: orReason(summarize(runs.referenceStream), noReference),
        ratio: orReason(summarize(pairRatios(runs.ralphStream, runs.referenceStream)), noReference),
        digits: 0,
      },
      {
        scenario,
        metric: `${label} of events, whole run, start-up included (MB/s)`,
        ralph: orReason(ralphRate, NOT_AVAILABLE),
        peer: 'bash loop (raw copy)',
        peerValue: orReason(summarize(runs.reference), noReference),
        ratio: orReason(summarize(pairRatios(runs.ralph, runs.reference)), noReference),
        digits: 0,
      },
      {
        scenario,
        metric: `${label} of events, peak RSS (MB)`,
        ralph: orReason(ralphRss, noRss),
        peer: 'bash loop (raw copy)',
        peerValue: orReason(summarize(runs.referenceRss), ctx.hasJq ? noRss : noReference),
        ratio: orReason(summarize(pairRatios(runs.ralphRss, runs.referenceRss)), ctx.hasJq ? noRss : noReference),
        digits: 1,
      },
    ],
    notes: [
      `Scenario 3: the agent alone writes its ${label} into a pipe at ${summarize(runs.agent)?.median.toFixed(0)} MB/s, peak RSS ${summarize(runs.agentRss)?.max.toFixed(1) ?? 'n/a'} MB. GNU time reports the largest process of a tree; ${ownRss(runs.agentRss, runs.ralphRss)} The parse + render + log rate is ${label} less ${tiny} bytes over the wall time of the run less that of the same run with a ${tiny}-byte stream, in the same round; the whole-run rate counts start-up too.`,
    ],
    targets: [
      {
        goal: `stream-json parse + render + log ≥ ${RATE_TARGET} MB/s (median, start-up excluded)`,
        measured: ralphStream
          ? `${ralphStream.median.toFixed(0)} MB/s (whole run ${ralphRate?.median.toFixed(0) ?? NOT_AVAILABLE} MB/s)`
          : NOT_AVAILABLE,
        pass: ralphStream ? ralphStream.median >= RATE_TARGET : undefined,
      },
      {
        goal: `stream-json peak RSS under ${RSS_LIMIT_MB} MB`,
        measured: ralphRss ? `${ralphRss.max.toFixed(1)} MB (largest run)` : noRss,
        pass: ralphRss ? ralphRss.max < RSS_LIMIT_MB : undefined,
      },
    ],
  };
}

/** Whether the RSS figure for ralph can be the agent's rather than ralph's own. */
function ownRss(/** @type {number[]} */ agent, /** @type {number[]} */ ralph) {
  if (agent.length === 0 || ralph.length === 0) return 'no RSS was measured.';
  return Math.max(...agent) < Math.min(...ralph)
    ? "the agent's is smaller than every figure for ralph, so those are ralph's own."
    : "the agent's is not always smaller, so the figure for ralph is an upper bound.";
}
