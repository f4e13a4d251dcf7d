// Scenario 11: ralph beside the other loop runners on npm (ralph-tui, ralphy, ralph-starter), each
// installed from the registry into a folder of the bench's own and run with the same fake `claude`
// (it commits at once and answers in stream-json) for the same number of iterations. The measure is
// each runner's own CPU per agent call: its whole process tree's (GNU time) less what the agent
// reports for itself (bash's `times`). Not run by --quick (it installs from the network).
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { canCountCpu, runCounted } from '../lib/cpu.mjs';
import { inFreshRepo } from '../lib/loops.mjs';
import { installPeers, peers } from '../lib/peers.mjs';
import { NOT_AVAILABLE, orReason } from '../lib/rows.mjs';
import { pairRatios, summarize } from '../lib/stats.mjs';
import { AGENTS, RALPH_BIN } from '../lib/workspace.mjs';

/** One run of `file args` in a fresh repository: its own CPU and wall time per agent call (ms). */
async function perCall(ctx, /** @type {string} */ bin, prepare, /** @type {[string, string[]]} */ [file, args]) {
  return inFreshRepo(ctx, async (dir) => {
    prepare(dir);
    const env = ctx.ws.env(bin, { BENCH_STAMPS: join(dir, '.bench-stamps'), BENCH_TIMES: join(dir, '.bench-times') });
    const run = await runCounted(file, args, { cwd: dir, env, scratch: ctx.ws.scratch, okCodes: [0, 1, 2, 3, 4] });
    const calls = run.calls ?? 0;
    if (calls === 0) throw new Error(`${file}: the agent was never called`);
    return { cpu: (run.treeCpuMs - run.agentCpuMs) / calls, wall: run.wallMs / calls };
  });
}

/** @param {import('../lib/loops.mjs').Context} ctx */
export async function peerRunners(ctx) {
  const skipped = (/** @type {string} */ why) => ({
    rows: [],
    notes: [`Scenario 11 (peers) skipped: ${why}.`],
    targets: [],
  });
  if (ctx.quick) return skipped('--quick does not install from the network');
  if (!canCountCpu()) return skipped('it needs GNU time (/usr/bin/time)');
  const prefix = process.env.BENCH_PEERS_PREFIX ?? join(tmpdir(), 'ralph-bench-peers');
  ctx.progress(`peers: installing ${prefix}`);
  const why = installPeers(prefix);
  if (why) return skipped(why);
  const iterations = 30;
  const bin = ctx.ws.agentBin(AGENTS.streamCommit);
  const ralph = { cpu: /** @type {number[]} */ ([]), wall: /** @type {number[]} */ ([]) };
  const others = peers(prefix).map((peer) => ({
    peer,
    cpu: /** @type {number[]} */ ([]),
    wall: /** @type {number[]} */ ([]),
  }));
  const ralphArgs = ['run', '--max-iterations', `${iterations}`, '--max-stuck', '1000000'];
  for (let round = 0; round < ctx.bigRuns; round++) {
    ctx.progress(`peers: round ${round + 1}/${ctx.bigRuns} (${iterations} iterations each)`);
    const mine = await perCall(ctx, bin, () => undefined, [process.execPath, [RALPH_BIN, ...ralphArgs]]);
    ralph.cpu.push(mine.cpu);
    ralph.wall.push(mine.wall);
    for (const other of others) {
      const theirs = await perCall(ctx, bin, other.peer.prepare, other.peer.command(iterations));
      other.cpu.push(theirs.cpu);
      other.wall.push(theirs.wall);
    }
  }
  const row = (/** @type {(typeof others)[number]} */ other, /** @type {'cpu' | 'wall'} */ key) => ({
    scenario: '11 peers',
    metric:
      key === 'cpu'
        ? `own CPU per agent call, ${iterations} calls (ms)`
        : `wall time per agent call, ${iterations} calls (ms)`,
    ralph: orReason(summarize(ralph[key]), NOT_AVAILABLE),
    peer: other.peer.name,
    peerValue: orReason(summarize(other[key]), NOT_AVAILABLE),
    ratio: orReason(summarize(pairRatios(ralph[key], other[key])), NOT_AVAILABLE),
    digits: 1,
  });
  const lowest = Math.min(...others.map((other) => summarize(other.cpu)?.median ?? Infinity));
  const mine = summarize(ralph.cpu)?.median;
  return {
    rows: [...others.map((other) => row(other, 'cpu')), ...others.map((other) => row(other, 'wall'))],
    notes: [
      `Scenario 11: ralph, ralph-tui (on Bun), ralphy and ralph-starter, each installed from npm (\`npm install --ignore-scripts\` into ${prefix}), run in turn in fresh repositories with the same fake \`claude\` (bench/agents/stream-commit.sh) for ${iterations} iterations; own CPU is the tree's (GNU time) less the agent's (bash's \`times\`), over the agent calls, each runner's start included.`,
    ],
    targets: [
      {
        goal: "ralph's own CPU per agent call below the lowest peer's (median)",
        measured:
          mine === undefined || lowest === Infinity
            ? NOT_AVAILABLE
            : `${mine.toFixed(1)} ms against ${lowest.toFixed(1)} ms`,
        pass: mine === undefined || lowest === Infinity ? undefined : mine < lowest,
      },
    ],
  };
}
