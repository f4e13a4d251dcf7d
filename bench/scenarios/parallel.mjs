// Scenario 8: four loops at once. `ralph run --parallel` over four task lists, each loop 100
// iterations in its own worktree, against one `ralph run --worktree` loop of 100 on the same
// instant agent: on two cores, the four should take at most 1.5 × the one (the agent does almost
// nothing, so this is ralph's own work, the merge check after every commit included). The peak
// memory is the whole process tree's: the supervisor, four loops and their agents and gits.
// Beside them, the same agent with no loop runner at all: four bash loops of it against one, the
// floor that any runner's ratio sits on when the agent itself keeps a core busy.
import { execFileSync } from 'node:child_process';
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { measure } from '../lib/measure.mjs';
import { inFreshRepo } from '../lib/loops.mjs';
import { NOT_AVAILABLE, orReason } from '../lib/rows.mjs';
import { pairRatios, summarize } from '../lib/stats.mjs';
import { AGENTS, RALPH_BIN } from '../lib/workspace.mjs';

const LISTS = ['alpha', 'beta', 'gamma', 'delta'];
const TARGET = 1.5;

/** Four task lists beside the repository's own, committed, with the worktrees kept out of git. */
function addLists(/** @type {string} */ dir) {
  mkdirSync(join(dir, 'ralph/lists'));
  for (const name of LISTS) {
    const stories = [1, 2, 3].map((n) => ({ id: `${name}-${n}`, title: `Story ${n}`, priority: n, passes: false }));
    writeFileSync(join(dir, `ralph/lists/${name}.json`), JSON.stringify({ project: name, stories }, null, 2) + '\n');
  }
  writeFileSync(join(dir, '.gitignore'), 'ralph/worktrees/\nralph/logs/\n');
  const identity = {
    GIT_AUTHOR_NAME: 'bench',
    GIT_AUTHOR_EMAIL: 'b@b',
    GIT_COMMITTER_NAME: 'bench',
    GIT_COMMITTER_EMAIL: 'b@b',
  };
  for (const args of [
    ['add', '-A'],
    ['commit', '-q', '-m', 'lists'],
  ])
    execFileSync('git', args, { cwd: dir, env: { ...process.env, ...identity }, stdio: 'ignore' });
}

/** Four repositories of their own beside `dir`, each with a commit, for the agent-alone loops. */
function agentRepos(/** @type {string} */ dir, /** @type {NodeJS.ProcessEnv} */ env) {
  return LISTS.map((name) => {
    const repo = join(dir, `agent-alone-${name}`);
    mkdirSync(repo);
    for (const args of [
      ['init', '-q'],
      ['config', 'gc.auto', '0'],
      ['commit', '-q', '--allow-empty', '-m', 'initial'],
    ])
      execFileSync('git', args, { cwd: repo, env, stdio: 'ignore' });
    return repo;
  });
}

/** A bash loop calling the agent `iterations` times in each repository, all at once. */
function agentAlone(/** @type {string[]} */ repos, /** @type {number} */ iterations) {
  const loop = `for i in $(seq ${iterations}); do claude -p x >/dev/null; done`;
  return ['-c', `${repos.map((repo) => `(cd '${repo}' && ${loop}) &`).join(' ')} wait`];
}

/** @param {import('../lib/loops.mjs').Context} ctx */
export async function parallelLoops(ctx) {
  const iterations = ctx.quick ? 10 : 100;
  const env = ctx.ws.env(ctx.ws.agentBin(AGENTS.instantCommit));
  const budget = ['--max-iterations', String(iterations), '--max-stuck', '1000000', ...ctx.caps.textArgs];
  const options = (/** @type {string} */ dir) => ({
    cwd: dir,
    env,
    scratch: ctx.ws.scratch,
    okCodes: [1],
    treeRss: true,
    // A loop's refusal is on the supervisor's stdout: kept, so a failed round says why.
    keepStdout: true,
  });
  /** @type {number[]} */ const one = [];
  /** @type {number[]} */ const four = [];
  /** @type {number[]} */ const memory = [];
  /** @type {number[]} */ const memoryOne = [];
  /** @type {number[]} */ const aloneOne = [];
  /** @type {number[]} */ const aloneFour = [];
  for (let round = 0; round < ctx.bigRuns; round++) {
    ctx.progress(`parallel: round ${round + 1}/${ctx.bigRuns} (4 × ${iterations} iterations)`);
    await inFreshRepo(ctx, async (dir) => {
      addLists(dir);
      const single = ['run', '--worktree', '--tasks', 'ralph/lists/alpha.json', ...budget];
      const parallel = ['run', '--parallel', ...budget];
      // Turns first, so drift hits both; the single loop runs in its own list's worktree either way.
      const order = round % 2 === 0 ? [single, parallel] : [parallel, single];
      for (const args of order) {
        const result = await measure(process.execPath, [RALPH_BIN, ...args], options(dir));
        (args === single ? one : four).push(result.wallMs);
        if (result.treeRssMb !== undefined) (args === single ? memoryOne : memory).push(result.treeRssMb);
      }
      const repos = agentRepos(dir, env);
      const alone = { cwd: dir, env, scratch: ctx.ws.scratch };
      aloneOne.push((await measure('bash', agentAlone(repos.slice(0, 1), iterations), alone)).wallMs);
      aloneFour.push((await measure('bash', agentAlone(repos, iterations), alone)).wallMs);
    });
  }
  const ratio = summarize(pairRatios(four, one));
  const peak = summarize(memory);
  const floor = summarize(pairRatios(aloneFour, aloneOne));
  return {
    rows: [
      {
        scenario: '8 parallel loops',
        metric: `4 loops × ${iterations} iterations vs 1 loop × ${iterations}, wall (ms)`,
        ralph: orReason(summarize(four), NOT_AVAILABLE),
        peer: '1 loop',
        peerValue: orReason(summarize(one), NOT_AVAILABLE),
        ratio: orReason(ratio, NOT_AVAILABLE),
        digits: 0,
      },
      {
        scenario: '8 parallel loops',
        metric: `the agent alone, no ralph: 4 bash loops × ${iterations} calls vs 1, wall (ms)`,
        ralph: orReason(summarize(aloneFour), NOT_AVAILABLE),
        peer: '1 bash loop',
        peerValue: orReason(summarize(aloneOne), NOT_AVAILABLE),
        ratio: orReason(floor, NOT_AVAILABLE),
        digits: 0,
      },
      {
        scenario: '8 parallel loops',
        metric: 'peak memory of the whole process tree (MB)',
        ralph: orReason(peak, 'n/a (no /proc)'),
        peer: '1 loop',
        peerValue: orReason(summarize(memoryOne), 'n/a (no /proc)'),
        ratio: orReason(summarize(pairRatios(memory, memoryOne)), 'n/a (no /proc)'),
        digits: 0,
      },
    ],
    notes: [
      `Scenario 8: four task lists under ralph/lists/, \`ralph run --parallel\` (a loop per list in its worktree, the merge check after every commit) against \`ralph run --worktree\` on one of them; the instant agent commits at once. Peak memory is the sum of the resident sets of every process of the tree, sampled every 50 ms.`,
    ],
    targets: [
      {
        goal: `Four parallel loops ≤ ${TARGET} × the time of one (median ratio, 2 cores)`,
        measured: ratio
          ? `${ratio.median.toFixed(2)} × (the agent alone, with no loop runner: ${floor ? `${floor.median.toFixed(2)} ×` : NOT_AVAILABLE})`
          : NOT_AVAILABLE,
        pass: ratio ? ratio.median <= TARGET : undefined,
      },
    ],
  };
}
