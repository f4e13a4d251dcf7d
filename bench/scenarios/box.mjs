// Scenario 9: what the box costs. The same instant agent under `ralph run` with the box on
// (bubblewrap) and off (--box none), turn about: the first agent's delay (a run of one iteration:
// the probe, the box's set-up and one bwrap start) and each later iteration's (the rest of a run of
// many, less that first one). The agent does nothing but commit, so the difference is the box's.
import { execFileSync } from 'node:child_process';
import { measure } from '../lib/measure.mjs';
import { inFreshRepo } from '../lib/loops.mjs';
import { NOT_AVAILABLE, orReason } from '../lib/rows.mjs';
import { summarize } from '../lib/stats.mjs';
import { AGENTS, RALPH_BIN } from '../lib/workspace.mjs';

const PER_ITERATION_TARGET_MS = 25;
const FIRST_AGENT_TARGET_MS = 150;

/** Whether bubblewrap can make a box on this machine: without it there is nothing to measure. */
function boxWorks() {
  try {
    execFileSync('bwrap', ['--unshare-pid', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', 'true'], {
      stdio: 'ignore',
    });
    return true;
  } catch {
    return false;
  }
}

/** @param {import('../lib/loops.mjs').Context} ctx */
export async function boxCost(ctx) {
  const many = ctx.quick ? 5 : 100;
  if (process.platform !== 'linux' || !boxWorks()) return unavailable(many, 'n/a (no bubblewrap box here)');
  const base = ctx.ws.env(ctx.ws.agentBin(AGENTS.instantCommit));
  /** @param {'none' | 'bubblewrap'} box @param {string} dir @param {number} iterations */
  const run = (box, dir, iterations) =>
    measure(
      process.execPath,
      [RALPH_BIN, 'run', '--max-iterations', String(iterations), '--max-stuck', '1000000', ...ctx.caps.textArgs],
      { cwd: dir, env: { ...base, RALPH_BOX: box }, scratch: ctx.ws.scratch, okCodes: [1] },
    );
  /** @type {number[]} */ const first = [];
  /** @type {number[]} */ const each = [];
  for (let round = 0; round < ctx.runs; round++) {
    ctx.progress(`box: round ${round + 1}/${ctx.runs} (1 and ${many} iterations, on and off)`);
    /** @type {Record<string, number>} */ const wall = {};
    const order = round % 2 === 0 ? ['bubblewrap', 'none'] : ['none', 'bubblewrap'];
    for (const box of /** @type {('none' | 'bubblewrap')[]} */ (order)) {
      wall[`${box}-1`] = (await inFreshRepo(ctx, (dir) => run(box, dir, 1))).wallMs;
      wall[`${box}-n`] = (await inFreshRepo(ctx, (dir) => run(box, dir, many))).wallMs;
    }
    const firstDelay = wall['bubblewrap-1'] - wall['none-1'];
    first.push(firstDelay);
    each.push((wall['bubblewrap-n'] - wall['none-n'] - firstDelay) / (many - 1));
  }
  const firstMs = summarize(first);
  const eachMs = summarize(each);
  return {
    rows: [
      row(`the first agent: box on − off, 1 iteration (ms)`, firstMs, 1),
      row(`each later iteration: box on − off, ${many} iterations (ms)`, eachMs, 2),
    ],
    notes: [
      `Scenario 9: ralph with --box bubblewrap against --box none, turn about, the instant agent; the first agent's delay is the difference of one-iteration runs, each later iteration's is the rest of a ${many}-iteration run's difference over ${many - 1}.`,
    ],
    targets: [
      {
        goal: `The box adds at most ${PER_ITERATION_TARGET_MS} ms per iteration`,
        measured: eachMs ? `${eachMs.median.toFixed(2)} ms` : NOT_AVAILABLE,
        pass: eachMs ? eachMs.median <= PER_ITERATION_TARGET_MS : undefined,
      },
      {
        goal: `The box delays the first agent by at most ${FIRST_AGENT_TARGET_MS} ms`,
        measured: firstMs ? `${firstMs.median.toFixed(1)} ms` : NOT_AVAILABLE,
        pass: firstMs ? firstMs.median <= FIRST_AGENT_TARGET_MS : undefined,
      },
    ],
  };
}

/** @param {string} metric @param {ReturnType<typeof summarize>} value @param {number} digits */
function row(metric, value, digits) {
  return {
    scenario: '9 box',
    metric,
    ralph: orReason(value, NOT_AVAILABLE),
    peer: '—',
    peerValue: '—',
    ratio: '—',
    digits,
  };
}

/** @param {number} many @param {string} why */
function unavailable(many, why) {
  return {
    rows: [
      row('the first agent: box on − off (ms)', undefined, 1),
      row(`each later iteration, ${many} iterations (ms)`, undefined, 2),
    ].map((entry) => ({ ...entry, ralph: why })),
    notes: [],
    targets: [],
  };
}
