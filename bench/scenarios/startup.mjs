// Scenario 5: how long ralph takes to start — `ralph --version` (commander and nothing else),
// `ralph status`, and a run's time to its first agent — next to Node's own start (`node -e 0`),
// and a run's next to the floor under it: a script that does only what a run must before its agent.
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { measure } from '../lib/measure.mjs';
import { inFreshRepo, runLoop } from '../lib/loops.mjs';
import { NOT_AVAILABLE, orReason } from '../lib/rows.mjs';
import { pairRatios, summarize } from '../lib/stats.mjs';
import { AGENTS, BENCH_DIR, RALPH_BIN } from '../lib/workspace.mjs';

const VERSION_TARGET_MS = 150;
const FLOOR_SCRIPT = join(BENCH_DIR, 'lib/first-agent-floor.cjs');
const SCENARIO = '5 start-up';

/**
 * Variables that make Node's own start do more, for `node -e 0` and ralph alike: with
 * NODE_EXTRA_CA_CERTS, Node 20 reads and parses every certificate of the file before it runs a
 * line (some 40 ms on the machines of bench/RESULTS.md). A cost both pay flatters every ratio to
 * Node's start, so the ratio targets are judged on a start without them; where the machine sets
 * one, the rows "with … as set here" show the start with it.
 */
const NODE_START_VARIABLES = ['NODE_EXTRA_CA_CERTS', 'NODE_OPTIONS'];

/** @typedef {{ node: number[], version: number[], status: number[], firstSpawn: number[], floor: number[], runHelp: number[] }} Series */

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
    const plain = starts(ctx, dir, plainEnv, { floor: true });
    const machine = setHere.length ? starts(ctx, dir, machineEnv, { floor: false }) : undefined;
    const both = machine ? [plain, machine] : [plain];
    for (const start of both) await start.warmUp();
    // Each round in turns: with and without the variables, so that drift hits them alike.
    for (let round = 0; round < samples; round++)
      for (const start of round % 2 === 0 ? both : [...both].reverse()) await start.sample(round);
    const named = setHere.join(' and ');
    const versionTarget = summarize((machine ?? plain).runs.version);
    return {
      rows: [
        ...startRows(ctx, plain.runs, ''),
        againstNode(
          plain.runs,
          'the floor: a script that only asks git twice and starts the agent, exec to its first line (ms)',
          plain.runs.floor,
        ),
        ...boundRows(plain.runs),
        ...(machine ? startRows(ctx, machine.runs, `, with ${named} as set here`) : []),
      ],
      targets: [
        {
          goal: `\`ralph --version\` ≤ ${VERSION_TARGET_MS} ms (median${machine ? `, with ${named} as set here` : ''})`,
          measured: versionTarget ? `${versionTarget.median.toFixed(1)} ms` : NOT_AVAILABLE,
          pass: versionTarget ? versionTarget.median <= VERSION_TARGET_MS : undefined,
        },
        ratioTarget(
          '`ralph status` ≤ 2 × `node -e 0` (median ratio)',
          ctx.caps.hasStatus ? summarize(pairRatios(plain.runs.status, plain.runs.node)) : undefined,
        ),
        ratioTarget(
          '`ralph run` to its first agent ≤ 2 × `node -e 0` (median ratio)',
          summarize(pairRatios(plain.runs.firstSpawn, plain.runs.node)),
        ),
      ],
      notes: [machine ? startNote(named, plain.runs, machine.runs) : plainNote()],
    };
  });
}

/**
 * The series of one environment: `node -e 0`, `ralph --version`, `ralph status`, a run's first
 * agent and (with `floor`) the floor's, sampled together so that drift hits them alike.
 */
function starts(ctx, dir, env, { floor }) {
  /** @type {Series} */
  const runs = { node: [], version: [], status: [], firstSpawn: [], floor: [], runHelp: [] };
  const options = { cwd: dir, env, scratch: ctx.ws.scratch };
  const time = async (/** @type {string[]} */ args, okCodes = [0]) =>
    (await measure(process.execPath, args, { ...options, okCodes })).wallMs;
  const stamps = join(ctx.ws.scratch, 'first-spawn-stamps');
  const stamped = { ...env, BENCH_STAMPS: stamps };
  // From the exec to the agent's first line (its own start stamp). The run itself is not timed.
  const toFirstLine = async (/** @type {() => Promise<unknown>} */ start) => {
    rmSync(stamps, { force: true });
    const startedAt = performance.timeOrigin + performance.now();
    await start();
    const first = existsSync(stamps) ? /^s (\d+\.\d+)$/m.exec(readFileSync(stamps, 'utf8')) : null;
    if (!first) throw new Error('the agent of the first-spawn run left no start stamp');
    return Number(first[1]) * 1000 - startedAt;
  };
  const run = () =>
    toFirstLine(() =>
      runLoop(ctx, 'ralph', {
        dir,
        env: stamped,
        iterations: 1,
        ralphArgs: [...ctx.caps.textArgs, ...ctx.caps.resumeArgs],
      }),
    );
  const floorRun = () => toFirstLine(() => measure(process.execPath, [FLOOR_SCRIPT], { ...options, env: stamped }));
  return {
    runs,
    warmUp: async () => {
      await time([RALPH_BIN, '--version']);
      await time(['-e', '0']);
    },
    async sample(/** @type {number} */ round) {
      runs.node.push(await time(['-e', '0']));
      runs.version.push(await time([RALPH_BIN, '--version']));
      // status reports the loop's state through its exit code too; any documented code will do.
      if (ctx.caps.hasStatus) runs.status.push(await time([RALPH_BIN, 'status'], [0, 1, 2, 3, 4]));
      if (!floor) return void runs.firstSpawn.push(await run());
      runs.runHelp.push(await time([RALPH_BIN, 'run', '--help']));
      // In turns: each comes second (after the other's commit) as often as first.
      if (round % 2 === 0) {
        runs.firstSpawn.push(await run());
        runs.floor.push(await floorRun());
      } else {
        runs.floor.push(await floorRun());
        runs.firstSpawn.push(await run());
      }
    },
  };
}

/** The rows of `ralph --version`, `ralph status` and a run's first agent against `node -e 0`, in one environment. */
function startRows(ctx, /** @type {Series} */ runs, /** @type {string} */ where) {
  const noStatus = 'n/a (no `ralph status` in this build)';
  const row = (/** @type {string} */ metric, /** @type {number[]} */ values) => againstNode(runs, metric, values);
  return [
    row(`\`ralph --version\` wall time${where} (ms)`, runs.version),
    ctx.caps.hasStatus
      ? row(`\`ralph status\` wall time${where} (ms)`, runs.status)
      : {
          ...row(`\`ralph status\` wall time${where} (ms)`, []),
          ralph: noStatus,
          peerValue: noStatus,
          ratio: noStatus,
        },
    row(`\`ralph run\`: exec to the first agent line${where} (ms)`, runs.firstSpawn),
  ];
}

/**
 * How close a run could come to its first agent without loading less code: `ralph run --help`
 * loads what a run loads before its agent (the command line, the run's chunk) and runs none of it;
 * the floor's work above Node's start (git twice, the agent) is what any run adds to that. Their
 * sum, round by round, estimates the least the first agent can take with the code as it is (a
 * run could overlap its git with the loading, not its agent: bench/RESULTS.md says how much).
 */
function boundRows(/** @type {Series} */ runs) {
  const bound = runs.runHelp.map((help, round) => help + (runs.floor[round] ?? NaN) - (runs.node[round] ?? NaN));
  return runs.runHelp.length === 0
    ? []
    : [
        againstNode(
          runs,
          '`ralph run --help` wall time: the code a run loads before its agent, none of it run (ms)',
          runs.runHelp,
        ),
        againstNode(
          runs,
          "the least a run's first agent could take, estimated: `ralph run --help`, then the floor's work above Node's start (ms)",
          bound,
        ),
      ];
}

/** A row of `values` next to `node -e 0`, their ratio taken round by round. */
function againstNode(/** @type {Series} */ runs, /** @type {string} */ metric, /** @type {number[]} */ values) {
  return {
    scenario: SCENARIO,
    metric,
    ralph: orReason(summarize(values), NOT_AVAILABLE),
    peer: 'node -e 0',
    peerValue: orReason(summarize(runs.node), NOT_AVAILABLE),
    ratio: orReason(summarize(pairRatios(values, runs.node)), NOT_AVAILABLE),
    digits: 1,
  };
}

/** What the variables cost each start, measured: a claim that both pay the same would be a guess. */
function startNote(/** @type {string} */ named, /** @type {Series} */ plain, /** @type {Series} */ machine) {
  const median = (/** @type {number[]} */ values) => summarize(values)?.median ?? NaN;
  const more = (/** @type {keyof Series} */ key) => {
    const extra = median(machine[key]) - median(plain[key]);
    return `${extra < 0 ? '−' : '+'}${Math.abs(extra).toFixed(1)} ms`;
  };
  const them = named.includes(' and ') ? 'them' : 'it';
  return (
    `Scenario 5 judges its ratio targets on Node started without ${named}, which this machine sets: with ` +
    `${them}, \`node -e 0\` takes ${median(machine.node).toFixed(1)} ms instead of ` +
    `${median(plain.node).toFixed(1)} ms (${more('node')}), \`ralph --version\` ${more('version')}, \`ralph status\` ` +
    `${more('status')} and a run's first agent ${more('firstSpawn')}: a cost on both sides of a ratio flatters ralph. ` +
    `The rows "as set here" show the starts with ${them}; the 150 ms limit of \`ralph --version\` is judged on ` +
    'those, the wait on this machine.'
  );
}

function plainNote() {
  return `Scenario 5 starts Node without ${NODE_START_VARIABLES.join(' or ')} (none is set here): they make Node's own start longer, for \`node -e 0\` and ralph alike.`;
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
