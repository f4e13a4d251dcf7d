#!/usr/bin/env node
// Before/after for a change to ralph: two builds, run alternately on the same machine with the
// instant-commit agent, compared by per-iteration loop overhead (the gap between agent calls).
// usage: node bench/ab.mjs BEFORE/bin/ralph.cjs AFTER/bin/ralph.cjs [--iterations N] [--rounds N]
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { measure } from './lib/measure.mjs';
import { median, pairRatios, summarize } from './lib/stats.mjs';
import { formatSummary } from './lib/rows.mjs';
import { AGENTS, createWorkspace } from './lib/workspace.mjs';
import { gapsBetweenCalls } from './scenarios/scaling.mjs';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    iterations: { type: 'string', default: '200' },
    rounds: { type: 'string', default: '5' },
    args: { type: 'string', default: '--output text' },
  },
});
if (positionals.length !== 2) {
  console.error(
    'usage: node bench/ab.mjs BEFORE/bin/ralph.cjs AFTER/bin/ralph.cjs [--iterations N] [--rounds N] [--args "--output text"]',
  );
  process.exit(64);
}
const iterations = Number(values.iterations);
const rounds = Number(values.rounds);
const ws = createWorkspace();
const bin = ws.agentBin(AGENTS.instantCommit);
/** @type {Record<string, { gap: number[], total: number[] }>} */
const results = Object.fromEntries(positionals.map((path) => [path, { gap: [], total: [] }]));
try {
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? positionals : [...positionals].reverse();
    for (const ralph of order) {
      const repo = ws.makeRepo();
      const stamps = join(repo.dir, '.bench-stamps');
      const args = [
        ralph,
        'run',
        '--max-iterations',
        String(iterations),
        '--max-stuck',
        '1000000',
        ...values.args.split(' ').filter(Boolean),
      ];
      const { wallMs } = await measure(process.execPath, args, {
        cwd: repo.dir,
        env: ws.env(bin, { BENCH_STAMPS: stamps }),
        scratch: ws.scratch,
        okCodes: [1],
      });
      results[ralph].gap.push(median(gapsBetweenCalls(readFileSync(stamps, 'utf8'))));
      results[ralph].total.push(wallMs / iterations);
      repo.dispose();
    }
    console.error(`round ${round + 1}/${rounds} done`);
  }
} finally {
  ws.dispose();
}
const [before, after] = positionals.map((path) => results[path]);
console.log(`${iterations} iterations × ${rounds} rounds, alternating; median (min–max) over rounds`);
console.log(
  `median gap between agent calls (ms): before ${formatSummary(summarize(before.gap), 2)}  after ${formatSummary(summarize(after.gap), 2)}  after/before ${formatSummary(summarize(pairRatios(after.gap, before.gap)), 2)}`,
);
console.log(
  `wall time per iteration (ms):        before ${formatSummary(summarize(before.total), 2)}  after ${formatSummary(summarize(after.total), 2)}  after/before ${formatSummary(summarize(pairRatios(after.total, before.total)), 2)}`,
);
