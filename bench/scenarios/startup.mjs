// Scenario 5: how long ralph takes to start — `ralph --version` (commander and nothing else),
// `ralph status`, and a run's time to its first agent — next to the floor that Node itself sets
// (`node -e 0`).
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { measure } from '../lib/measure.mjs';
import { inFreshRepo, runLoop } from '../lib/loops.mjs';
import { NOT_AVAILABLE, orReason } from '../lib/rows.mjs';
import { pairRatios, summarize } from '../lib/stats.mjs';
import { AGENTS, BENCH_DIR, RALPH_BIN } from '../lib/workspace.mjs';

const VERSION_TARGET_MS = 150;
const FLOOR_SCRIPT = join(BENCH_DIR, 'lib/first-agent-floor.cjs');

/**
 * Variables that make Node's own start do more, for `node -e 0` and ralph alike: with
 * NODE_EXTRA_CA_CERTS, Node reads and parses every certificate of the file before it runs a line
 * (some 40 ms on the machines of bench/RESULTS.md). A cost both pay flatters every ratio to Node's
 * start, so the targets are judged on a start without them; where the machine sets one, the rows
 * "with … as set here" show the ratios with it.
 */
const NODE_START_VARIABLES = ['NODE_EXTRA_CA_CERTS', 'NODE_OPTIONS'];

/** @param {import('../lib/loops.mjs').Context} ctx */
export async function startup(ctx) {
  // Start-up is cheap and noisy: twice the usual number of samples, after one warm-up.
  const samples = ctx.quick ? 1 : ctx.runs * 2;
  const machineEnv = ctx.ws.env(ctx.ws.agentBin(AGENTS.instantCommit));
  const plainEnv = { ...machineEnv };
  for (const name of NODE_START_VARIABLES) delete plainEnv[name];
  const setHere = NODE_START_VARIABLES.filter((name) => machineEnv[name]);
  ctx.progress(`start-up: ${samples} samples each${setHere.length ? `, with and without ${setHere.join(', ')}` : ''}`);
  return inFreshRepo(ctx, async (dir) => {
    // A repository with a few iterations behind it, so `ralph status` has something to report.
    await runLoop(ctx, 'ralph', { dir, env: plainEnv, iterations: 3 });
    const plain = starts(ctx, dir, plainEnv, { version: true, floor: true });
    const machine = setHere.length ? starts(ctx, dir, machineEnv, { version: false, floor: false }) : undefined;
    await plain.warmUp();
    for (let i = 0; i < samples; i++) {
      await plain.sample();
      await machine?.sample();
    }
    const node = summarize(plain.runs.node);
    const version = summarize(plain.runs.version);
    const statusRatio = ctx.caps.hasStatus ? summarize(pairRatios(plain.runs.status, plain.runs.node)) : undefined;
    const firstSpawnRatio = summarize(pairRatios(plain.runs.firstSpawn, plain.runs.node));
    const scenario = '5 start-up';
    const nodePeer = { peer: 'node -e 0', peerValue: orReason(node, NOT_AVAILABLE) };
    return {
      rows: [
        {
          scenario,
          metric: '`ralph --version` wall time (ms)',
          ralph: orReason(version, NOT_AVAILABLE),
          ...nodePeer,
          ratio: orReason(summarize(pairRatios(plain.runs.version, plain.runs.node)), NOT_AVAILABLE),
          digits: 1,
        },
        ...startRows(ctx, plain.runs, ''),
        {
          scenario,
          metric: 'the floor: a script that only asks git twice and starts the agent, exec to its first line (ms)',
          ralph: orReason(summarize(plain.runs.floor), NOT_AVAILABLE),
          ...nodePeer,
          ratio: orReason(summarize(pairRatios(plain.runs.floor, plain.runs.node)), NOT_AVAILABLE),
          digits: 1,
        },
        ...(machine ? startRows(ctx, machine.runs, `, with ${setHere.join(' and ')} as set here`) : []),
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
      notes: [
        machine
          ? `Scenario 5 starts Node without ${setHere.join(' and ')}, which this machine sets: with it, \`node -e 0\` takes ${median(machine.runs.node)} ms instead of ${median(plain.runs.node)} ms, and ralph pays the same, so a ratio to Node's start read with it would flatter ralph. The targets are judged without it; the rows "as set here" show both starts with it.`
          : `Scenario 5 starts Node without ${NODE_START_VARIABLES.join(' or ')} (none is set here): they make Node's own start longer, for \`node -e 0\` and ralph alike.`,
      ],
    };
  });
}

/** The three start-up series of one environment, sampled together so that drift hits them alike. */
function starts(ctx, dir, env, { version, floor }) {
  /** @type {{ node: number[], version: number[], status: number[], firstSpawn: number[], floor: number[] }} */
  const runs = { node: [], version: [], status: [], firstSpawn: [], floor: [] };
  const options = { cwd: dir, env, scratch: ctx.ws.scratch };
  const time = async (/** @type {string[]} */ args, okCodes = [0]) =>
    (await measure(process.execPath, args, { ...options, okCodes })).wallMs;
  const stamps = join(ctx.ws.scratch, 'first-spawn-stamps');
  // From the exec of `ralph run` to the agent's first line (its own start stamp): the options,
  // the configuration, the start checks, the lock, then the spawn. The run itself is not timed.
  const toFirstLine = async (/** @type {() => Promise<unknown>} */ start) => {
    rmSync(stamps, { force: true });
    const startedAt = performance.timeOrigin + performance.now();
    await start();
    const first = /^s (\d+\.\d+)$/m.exec(readFileSync(stamps, 'utf8'));
    if (!first) throw new Error('the agent of the first-spawn run left no start stamp');
    return Number(first[1]) * 1000 - startedAt;
  };
  const stamped = { ...env, BENCH_STAMPS: stamps };
  const firstSpawn = () =>
    toFirstLine(() =>
      runLoop(ctx, 'ralph', {
        dir,
        env: stamped,
        iterations: 1,
        ralphArgs: [...ctx.caps.textArgs, ...ctx.caps.resumeArgs],
      }),
    );
  const floorSpawn = () => toFirstLine(() => measure(process.execPath, [FLOOR_SCRIPT], { ...options, env: stamped }));
  return {
    runs,
    warmUp: () => time([RALPH_BIN, '--version']),
    async sample() {
      runs.node.push(await time(['-e', '0']));
      if (version) runs.version.push(await time([RALPH_BIN, '--version']));
      // status reports the loop's state through its exit code too; any documented code will do.
      if (ctx.caps.hasStatus) runs.status.push(await time([RALPH_BIN, 'status'], [0, 1, 2, 3, 4]));
      runs.firstSpawn.push(await firstSpawn());
      if (floor) runs.floor.push(await floorSpawn());
    },
  };
}

/** The rows of `ralph status` and of a run's first agent against `node -e 0`, in one environment. */
function startRows(ctx, runs, where) {
  const scenario = '5 start-up';
  const node = orReason(summarize(runs.node), NOT_AVAILABLE);
  const noStatus = 'n/a (no `ralph status` in this build)';
  return [
    {
      scenario,
      metric: `\`ralph status\` wall time${where} (ms)`,
      ralph: ctx.caps.hasStatus ? orReason(summarize(runs.status), NOT_AVAILABLE) : noStatus,
      peer: 'node -e 0',
      peerValue: ctx.caps.hasStatus ? node : noStatus,
      ratio: ctx.caps.hasStatus ? orReason(summarize(pairRatios(runs.status, runs.node)), NOT_AVAILABLE) : noStatus,
      digits: 1,
    },
    {
      scenario,
      metric: `\`ralph run\`: exec to the first agent line${where} (ms)`,
      ralph: orReason(summarize(runs.firstSpawn), NOT_AVAILABLE),
      peer: 'node -e 0',
      peerValue: node,
      ratio: orReason(summarize(pairRatios(runs.firstSpawn, runs.node)), NOT_AVAILABLE),
      digits: 1,
    },
  ];
}

function median(/** @type {number[]} */ values) {
  return summarize(values)?.median.toFixed(1) ?? NOT_AVAILABLE;
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
