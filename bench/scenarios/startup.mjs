// Scenario 5: how long ralph takes to start — `ralph --version` (commander and nothing else),
// `ralph status`, and a run's time to its first agent — next to the floor that Node itself sets
// (`node -e 0`).
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { measure } from '../lib/measure.mjs';
import { inFreshRepo, runLoop } from '../lib/loops.mjs';
import { NOT_AVAILABLE, orReason } from '../lib/rows.mjs';
import { pairRatios, summarize } from '../lib/stats.mjs';
import { AGENTS, RALPH_BIN } from '../lib/workspace.mjs';

const VERSION_TARGET_MS = 150;

/** @param {import('../lib/loops.mjs').Context} ctx */
export async function startup(ctx) {
  // Start-up is cheap and noisy: twice the usual number of samples, after one warm-up.
  const samples = ctx.quick ? 1 : ctx.runs * 2;
  const env = ctx.ws.env(ctx.ws.agentBin(AGENTS.instantCommit));
  ctx.progress(`start-up: ${samples} samples each`);
  return inFreshRepo(ctx, async (dir) => {
    // A repository with a few iterations behind it, so `ralph status` has something to report.
    await runLoop(ctx, 'ralph', { dir, env, iterations: 3 });
    const options = { cwd: dir, env, scratch: ctx.ws.scratch };
    const time = async (/** @type {string[]} */ args, okCodes = [0]) =>
      (await measure(process.execPath, args, { ...options, okCodes })).wallMs;
    /** @type {{ node: number[], version: number[], status: number[], firstSpawn: number[] }} */
    const runs = { node: [], version: [], status: [], firstSpawn: [] };
    const stamps = join(ctx.ws.scratch, 'first-spawn-stamps');
    // From the exec of `ralph run` to the agent's first line (its own start stamp): the options,
    // the configuration, the start checks, the lock, then the spawn. The run itself is not timed.
    const firstSpawn = async () => {
      rmSync(stamps, { force: true });
      const startedAt = performance.timeOrigin + performance.now();
      await runLoop(ctx, 'ralph', {
        dir,
        env: { ...env, BENCH_STAMPS: stamps },
        iterations: 1,
        ralphArgs: [...ctx.caps.textArgs, ...ctx.caps.resumeArgs],
      });
      const first = /^s (\d+\.\d+)$/m.exec(readFileSync(stamps, 'utf8'));
      if (!first) throw new Error('the agent of the first-spawn run left no start stamp');
      return Number(first[1]) * 1000 - startedAt;
    };
    await time([RALPH_BIN, '--version']);
    for (let i = 0; i < samples; i++) {
      runs.node.push(await time(['-e', '0']));
      runs.version.push(await time([RALPH_BIN, '--version']));
      // status reports the loop's state through its exit code too; any documented code will do.
      if (ctx.caps.hasStatus) runs.status.push(await time([RALPH_BIN, 'status'], [0, 1, 2, 3, 4]));
      runs.firstSpawn.push(await firstSpawn());
    }
    const version = summarize(runs.version);
    const node = summarize(runs.node);
    const statusRatio = ctx.caps.hasStatus ? summarize(pairRatios(runs.status, runs.node)) : undefined;
    const firstSpawnRatio = summarize(pairRatios(runs.firstSpawn, runs.node));
    const noStatus = 'n/a (no `ralph status` in this build)';
    const scenario = '5 start-up';
    return {
      rows: [
        {
          scenario,
          metric: '`ralph --version` wall time (ms)',
          ralph: orReason(version, NOT_AVAILABLE),
          peer: 'node -e 0',
          peerValue: orReason(node, NOT_AVAILABLE),
          ratio: orReason(summarize(pairRatios(runs.version, runs.node)), NOT_AVAILABLE),
          digits: 1,
        },
        {
          scenario,
          metric: '`ralph status` wall time (ms)',
          ralph: ctx.caps.hasStatus ? orReason(summarize(runs.status), NOT_AVAILABLE) : noStatus,
          peer: 'node -e 0',
          peerValue: ctx.caps.hasStatus ? orReason(node, NOT_AVAILABLE) : noStatus,
          ratio: ctx.caps.hasStatus ? orReason(statusRatio, NOT_AVAILABLE) : noStatus,
          digits: 1,
        },
        {
          scenario,
          metric: '`ralph run`: exec to the first agent line (ms)',
          ralph: orReason(summarize(runs.firstSpawn), NOT_AVAILABLE),
          peer: 'node -e 0',
          peerValue: orReason(node, NOT_AVAILABLE),
          ratio: orReason(firstSpawnRatio, NOT_AVAILABLE),
          digits: 1,
        },
      ],
      targets: [
        {
          goal: `\`ralph --version\` ≤ ${VERSION_TARGET_MS} ms (median)`,
          measured: version ? `${version.median.toFixed(1)} ms` : NOT_AVAILABLE,
          pass: version ? version.median <= VERSION_TARGET_MS : undefined,
        },
        ratioTarget('`ralph status` ≤ 2 × `node -e 0` (median ratio)', ctx.caps.hasStatus ? statusRatio : undefined),
        ratioTarget('`ralph run` to its first agent ≤ 2 × `node -e 0` (median ratio)', firstSpawnRatio),
      ],
    };
  });
}

/** Issue 26: a command people run in `watch`, and a run's way to its first agent, at most twice Node's own start. */
const START_RATIO_TARGET = 2;

/** @param {string} goal @param {{ median: number } | undefined} ratio */
function ratioTarget(goal, ratio) {
  return {
    goal,
    measured: ratio ? `${ratio.median.toFixed(2)} ×` : NOT_AVAILABLE,
    pass: ratio ? ratio.median <= START_RATIO_TARGET : undefined,
  };
}
