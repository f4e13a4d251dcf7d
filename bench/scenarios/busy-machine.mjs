// Scenario 6: what a busy machine costs each iteration. 2,000 idle processes of another process
// tree (`sleep` children of a helper the bench starts and ends) against none, in one run, in each
// containment mode: with a cgroup ralph reads cgroup.procs; with the marker it walks /proc, and
// skips processes older than the scope before reading any environment.
import { spawn } from 'node:child_process';
import { inFreshRepo, runLoop } from '../lib/loops.mjs';
import { NOT_AVAILABLE, orReason } from '../lib/rows.mjs';
import { pairRatios, summarize } from '../lib/stats.mjs';
import { AGENTS } from '../lib/workspace.mjs';

const BUSY_TARGET = 1.2;

/** A helper with `count` idle `sleep` children, in a session of its own; resolves once all run. */
async function startIdleTree(/** @type {number} */ count) {
  const script = `for i in $(seq ${count}); do sleep 3600 & done; echo ready; wait`;
  const helper = spawn('sh', ['-c', script], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  await new Promise((resolve, reject) => {
    helper.once('error', reject);
    helper.stdout.on('data', (chunk) => String(chunk).includes('ready') && resolve(undefined));
  });
  return () => {
    try {
      process.kill(-(/** @type {number} */ (helper.pid)), 'SIGKILL');
    } catch {}
  };
}

/** @param {import('../lib/loops.mjs').Context} ctx */
export async function busyMachine(ctx) {
  const iterations = ctx.quick ? 5 : 100;
  const idleCount = ctx.quick ? 200 : 2000;
  const base = ctx.ws.env(ctx.ws.agentBin(AGENTS.instantCommit));
  const modes = /** @type {const} */ (['cgroup', 'marker']);
  /** @type {Record<string, { quiet: number[], busy: number[] }>} */
  const perIteration = { cgroup: { quiet: [], busy: [] }, marker: { quiet: [], busy: [] } };
  const once = async (/** @type {string} */ mode) =>
    inFreshRepo(ctx, async (dir) => {
      const env = { ...base, ...(mode === 'marker' ? { RALPH_CONTAINMENT: 'marker' } : {}) };
      return (await runLoop(ctx, 'ralph', { dir, env, iterations })).wallMs / iterations;
    });
  for (let round = 0; round < ctx.runs; round++) {
    ctx.progress(
      `busy machine: round ${round + 1}/${ctx.runs} (${iterations} iterations, ${idleCount} idle processes)`,
    );
    for (const mode of modes) perIteration[mode].quiet.push(await once(mode));
    const stopTree = await startIdleTree(idleCount);
    try {
      for (const mode of modes) perIteration[mode].busy.push(await once(mode));
    } finally {
      stopTree();
    }
  }
  const ratio = (/** @type {string} */ mode) =>
    summarize(pairRatios(perIteration[mode].busy, perIteration[mode].quiet));
  const rows = modes.map((mode) => ({
    scenario: '6 busy machine',
    metric: `per iteration with ${idleCount} idle processes, ${mode} mode (ms)`,
    ralph: orReason(summarize(perIteration[mode].busy), NOT_AVAILABLE),
    peer: 'same, none',
    peerValue: orReason(summarize(perIteration[mode].quiet), NOT_AVAILABLE),
    ratio: orReason(ratio(mode), NOT_AVAILABLE),
    digits: 2,
  }));
  const cgroup = ratio('cgroup');
  return {
    rows,
    notes: [
      `Scenario 6: whole iterations (ralph and an agent that commits at once), ${iterations} per run, with ${idleCount} idle \`sleep\` processes of another process tree running and without, alternating. The cgroup mode applies where ralph can create a cgroup (root here); where it cannot, its row measures the marker fallback too (see the containment line of the run).`,
    ],
    targets: [
      {
        goal: `With a cgroup, a busy machine costs ≤ ${BUSY_TARGET} × a quiet one per iteration (median ratio)`,
        measured: cgroup ? `${cgroup.median.toFixed(3)} ×` : NOT_AVAILABLE,
        pass: cgroup ? cgroup.median <= BUSY_TARGET : undefined,
      },
    ],
  };
}
