// Scenario 10: what an iteration costs as the task list grows, and what it writes (issue 42). The
// gap between agent calls with 1,000 stories against 3, on a quiet disk and beside a writer that
// keeps the disk busy (a rename over an existing file then waits for the disk's write-back); the
// renames per iteration, counted by strace; and ralph's own CPU per iteration.
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { canCountCpu, runCounted } from '../lib/cpu.mjs';
import { inFreshRepo } from '../lib/loops.mjs';
import { NOT_AVAILABLE, orReason } from '../lib/rows.mjs';
import { median, pairRatios, summarize } from '../lib/stats.mjs';
import { AGENTS, RALPH_BIN } from '../lib/workspace.mjs';
import { gapsBetweenCalls } from './scaling.mjs';

const GAP_TARGET = 1.15;
const RENAME_TARGET = 2;
const LONG = 1000;
const SHORT = 3;

/** ralph for `iterations` iterations, its agent stamping its calls and its CPU. */
function ralphArgs(/** @type {import('../lib/loops.mjs').Context} */ ctx, /** @type {number} */ iterations) {
  return [RALPH_BIN, 'run', '--max-iterations', String(iterations), '--max-stuck', '1000000', ...ctx.caps.textArgs];
}

/** A writer that keeps the disk busy: 64 MB written and flushed, over and over, until stopped. */
function startDiskWriter(/** @type {string} */ scratch) {
  const file = join(scratch, `disk-writer-${process.pid}`);
  const loop = `while :; do dd if=/dev/zero of="${file}" bs=1M count=64 conv=fsync status=none; done`;
  const child = spawn('sh', ['-c', loop], { detached: true, stdio: 'ignore' });
  return () => {
    try {
      process.kill(-(/** @type {number} */ (child.pid)), 'SIGKILL');
    } catch {}
    rmSync(file, { force: true });
  };
}

/** One run: the median gap between agent calls, and ralph's own CPU per iteration (ms). */
async function oneRun(/** @type {import('../lib/loops.mjs').Context} */ ctx, bin, stories, iterations) {
  return inFreshRepo(
    ctx,
    async (dir) => {
      const env = ctx.ws.env(bin, { BENCH_STAMPS: join(dir, '.bench-stamps'), BENCH_TIMES: join(dir, '.bench-times') });
      const run = await runCounted(process.execPath, ralphArgs(ctx, iterations), {
        cwd: dir,
        env,
        scratch: ctx.ws.scratch,
      });
      const gaps = gapsBetweenCalls(readFileSync(join(dir, '.bench-stamps'), 'utf8'));
      if (gaps.length !== iterations - 1)
        throw new Error(`iteration writes: expected ${iterations} agent calls, got ${gaps.length + 1}`);
      return { gap: median(gaps), cpu: (run.treeCpuMs - run.agentCpuMs) / iterations };
    },
    stories,
  );
}

/** Renames per iteration under strace (every process, and those of ralph's records), or why not. */
async function renamesPerIteration(/** @type {import('../lib/loops.mjs').Context} */ ctx, bin) {
  try {
    execFileSync('sh', ['-c', 'command -v strace'], { stdio: 'ignore' });
  } catch {
    return 'n/a (no strace)';
  }
  const count = (/** @type {number} */ iterations) =>
    inFreshRepo(
      ctx,
      async (dir) => {
        const out = join(ctx.ws.scratch, `strace-${process.pid}.txt`);
        const args = ['-f', '-e', 'trace=rename,renameat,renameat2', '-o', out, process.execPath];
        await new Promise((resolve, reject) => {
          const child = spawn('strace', [...args, ...ralphArgs(ctx, iterations)], {
            cwd: dir,
            env: ctx.ws.env(bin),
            stdio: 'ignore',
          });
          child.once('error', reject);
          child.once('exit', resolve);
        });
        // Node's compile cache is written once a build, whichever run comes first: not the loop's.
        const renames = readFileSync(out, 'utf8')
          .split('\n')
          .filter((line) => /rename(at2?)?\(/.test(line) && / = 0$/.test(line) && !line.includes('compile-cache'));
        rmSync(out, { force: true });
        return { all: renames.length, records: renames.filter((line) => /\/ralph\//.test(line)).length };
      },
      LONG,
    );
  // The difference of two runs: what each run does once (its start, its ending) cancels out.
  const [few, many] = ctx.quick ? [2, 4] : [5, 25];
  const [a, b] = [await count(few), await count(many)];
  return { all: (b.all - a.all) / (many - few), records: (b.records - a.records) / (many - few) };
}

/** @param {import('../lib/loops.mjs').Context} ctx */
export async function iterationWrites(ctx) {
  const scenario = '10 iteration writes';
  if (!canCountCpu())
    return { rows: [], notes: [`Scenario 10 skipped: it needs GNU time (/usr/bin/time).`], targets: [] };
  const iterations = ctx.quick ? 4 : 100;
  const bin = ctx.ws.agentBin(AGENTS.instantCommit);
  const disks = /** @type {const} */ (ctx.quick ? ['quiet'] : ['quiet', 'busy']);
  /** @type {Record<string, Record<number, { gap: number[], cpu: number[] }>>} */
  const runs = {};
  for (const disk of disks) runs[disk] = { [SHORT]: { gap: [], cpu: [] }, [LONG]: { gap: [], cpu: [] } };
  for (let round = 0; round < ctx.bigRuns; round++) {
    for (const disk of disks) {
      ctx.progress(`iteration writes: round ${round + 1}/${ctx.bigRuns}, ${disk} disk (${iterations} iterations)`);
      const stop = disk === 'busy' ? startDiskWriter(ctx.ws.scratch) : () => undefined;
      try {
        for (const stories of round % 2 === 0 ? [SHORT, LONG] : [LONG, SHORT]) {
          const { gap, cpu } = await oneRun(ctx, bin, stories, iterations);
          runs[disk][stories].gap.push(gap);
          runs[disk][stories].cpu.push(cpu);
        }
      } finally {
        stop();
      }
    }
  }
  ctx.progress('iteration writes: renames under strace');
  const renames = await renamesPerIteration(ctx, bin);
  const gapRow = (/** @type {string} */ disk) => ({
    scenario,
    metric: `gap between agent calls, ${LONG} stories, ${disk === 'busy' ? 'a writer keeping the disk busy' : 'quiet disk'} (ms)`,
    ralph: orReason(summarize(runs[disk][LONG].gap), NOT_AVAILABLE),
    peer: `${SHORT} stories`,
    peerValue: orReason(summarize(runs[disk][SHORT].gap), NOT_AVAILABLE),
    ratio: orReason(summarize(pairRatios(runs[disk][LONG].gap, runs[disk][SHORT].gap)), NOT_AVAILABLE),
    digits: 2,
  });
  const cpuRow = (/** @type {number} */ stories) => ({
    scenario,
    metric: `ralph's own CPU per iteration, ${stories} stories, quiet disk (ms)`,
    ralph: orReason(summarize(runs.quiet[stories].cpu), NOT_AVAILABLE),
    peer: '',
    peerValue: '',
    ratio: '',
    digits: 1,
  });
  const renameRow = (/** @type {'all' | 'records'} */ which) => ({
    scenario,
    metric:
      which === 'all'
        ? `renames per iteration (strace, every process: the agent's commit included), ${LONG} stories`
        : `renames per iteration of ralph's records and ralph/, ${LONG} stories`,
    ralph: typeof renames === 'string' ? renames : (summarize([renames[which]]) ?? NOT_AVAILABLE),
    peer: '',
    peerValue: '',
    ratio: '',
    digits: 2,
  });
  const ratio = (/** @type {string} */ disk) => summarize(pairRatios(runs[disk][LONG].gap, runs[disk][SHORT].gap));
  const gapTarget = (/** @type {string} */ disk) => {
    const measured = runs[disk] ? ratio(disk) : undefined;
    return {
      goal: `Gap between agent calls with ${LONG} stories ≤ ${GAP_TARGET} × with ${SHORT}, ${disk} disk (median)`,
      measured: measured ? `${measured.median.toFixed(3)} ×` : runs[disk] ? NOT_AVAILABLE : 'n/a (--quick)',
      pass: measured ? measured.median <= GAP_TARGET : undefined,
    };
  };
  return {
    rows: [...disks.map(gapRow), cpuRow(SHORT), cpuRow(LONG), renameRow('all'), renameRow('records')],
    notes: [
      `Scenario 10: ${iterations} iterations of an agent that commits at once, with ${SHORT} and ${LONG} stories in tasks.json, turn about; with a busy disk, a \`dd … conv=fsync\` loop writes beside the run. ralph's own CPU is the whole tree's (GNU time) less what the agent reports for itself and its \`git commit\` (bash's \`times\`), over the iterations: ralph's start and its git calls included. Renames: strace -f over two runs (${ctx.quick ? '2 and 4' : '5 and 25'} iterations), the difference over the iterations between them.`,
    ],
    targets: [
      gapTarget('quiet'),
      gapTarget('busy'),
      {
        goal: `Renames per iteration ≤ ${RENAME_TARGET} (strace, every process)`,
        measured: typeof renames === 'string' ? renames : renames.all.toFixed(2),
        pass: typeof renames === 'string' ? undefined : renames.all <= RENAME_TARGET,
      },
    ],
  };
}
