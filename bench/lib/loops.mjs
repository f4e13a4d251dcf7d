// The two loops under test, run the same way: the same repository set-up, the same fake agent
// first on PATH, an iteration budget, and a stuck limit so large that neither stops early.
import { measure } from './measure.mjs';
import { RALPH_BIN, REFERENCE_SCRIPT } from './workspace.mjs';

/** No run of the benchmark may stop on the stuck limit. */
const NEVER_STUCK = '1000000';

/**
 * @typedef {import('./workspace.mjs').Workspace} Workspace
 * @typedef {import('./ralph-cli.mjs').RalphCapabilities} RalphCapabilities
 * @typedef {object} Context
 * @property {Workspace} ws
 * @property {RalphCapabilities} caps
 * @property {boolean} quick
 * @property {number} runs     runs of the cheap scenarios
 * @property {number} bigRuns  runs of the big ones
 * @property {boolean} hasJq   the reference loop needs jq
 * @property {boolean} hasTime GNU time, for peak RSS
 * @property {(message: string) => void} progress
 * @typedef {'ralph' | 'reference'} Loop
 */

/**
 * Runs one loop for `iterations` iterations in `dir`; both end on the iteration budget (exit 1).
 * @param {Context} ctx @param {Loop} loop
 * @param {{ dir: string, env: NodeJS.ProcessEnv, iterations: number, ralphArgs?: string[], rss?: boolean }} run
 */
export function runLoop(ctx, loop, { dir, env, iterations, ralphArgs = ctx.caps.textArgs, rss = false }) {
  const budget = ['--max-iterations', String(iterations), '--max-stuck', NEVER_STUCK];
  const options = { cwd: dir, env, scratch: ctx.ws.scratch, rss, okCodes: [1] };
  return loop === 'ralph'
    ? measure(process.execPath, [RALPH_BIN, 'run', ...budget, ...ralphArgs], options)
    : measure('bash', [REFERENCE_SCRIPT, ...budget], options);
}

/** The loops to run in round `round`: ralph and the reference, in turns first, so drift hits both. */
export function loopsForRound(/** @type {Context} */ ctx, /** @type {number} */ round) {
  /** @type {Loop[]} */
  const loops = ctx.hasJq ? ['ralph', 'reference'] : ['ralph'];
  return round % 2 === 0 ? loops : loops.reverse();
}

/** Runs `body` in a fresh repository (of `stories` stories) and removes it afterwards. @template T */
export async function inFreshRepo(
  /** @type {Context} */ ctx,
  /** @type {(dir: string) => Promise<T>} */ body,
  stories = 3,
) {
  const repo = ctx.ws.makeRepo(stories);
  try {
    return await body(repo.dir);
  } finally {
    repo.dispose();
  }
}
