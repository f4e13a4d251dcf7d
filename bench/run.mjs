#!/usr/bin/env node
// `npm run bench`: ralph next to the bash ralph.sh pattern, same fake agents, same machine,
// alternating runs. Prints a table and writes it to bench/RESULTS.md (see --help).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { describeMachine } from './lib/machine.mjs';
import { currentChild, hasGnuTime } from './lib/measure.mjs';
import { detectRalph } from './lib/ralph-cli.mjs';
import { renderMarkdown, renderTable, renderTargets, writeResults } from './lib/report.mjs';
import { BENCH_DIR, createWorkspace, PACKAGE_ROOT } from './lib/workspace.mjs';
import { loopOverhead } from './scenarios/loop-overhead.mjs';
import { outputThroughput } from './scenarios/output-throughput.mjs';
import { scaling } from './scenarios/scaling.mjs';
import { startup } from './scenarios/startup.mjs';
import { busyMachine } from './scenarios/busy-machine.mjs';
import { reportScale } from './scenarios/report.mjs';
import { streamJsonThroughput } from './scenarios/stream-json.mjs';
import { parallelLoops } from './scenarios/parallel.mjs';
import { boxCost } from './scenarios/box.mjs';
import { iterationWrites } from './scenarios/iteration-writes.mjs';
import { peerRunners } from './scenarios/peers.mjs';

const USAGE = `usage: node bench/run.mjs [--quick] [--out PATH] [--runs N] [--big-runs N] [--only 1,2,…]
  --quick       a few iterations and small sizes, one run each (about 10 s); writes to a temp file
  --out PATH    where to write the results (default bench/RESULTS.md; with --quick a temp file)
  --runs N      runs of the cheap scenarios: loop overhead, start-up (default 5)
  --big-runs N  runs of the big ones: 1 GB of text, stream-json, 1,000 iterations (default 3)
  --only LIST   run only these scenarios (1 overhead, 2 text output, 3 stream-json, 4 scaling, 5 start-up,
                6 busy machine, 7 report, 8 parallel loops, 9 the box, 10 iteration writes,
                11 peers: ralph-tui, ralphy, ralph-starter from npm; not with --quick)`;

const SCENARIOS = [
  loopOverhead,
  outputThroughput,
  streamJsonThroughput,
  scaling,
  startup,
  busyMachine,
  reportScale,
  parallelLoops,
  boxCost,
  iterationWrites,
  peerRunners,
];

/** The command line as settings; exits 64 with the usage on anything it does not know. */
function readSettings() {
  try {
    const { values } = parseArgs({
      options: {
        quick: { type: 'boolean', default: false },
        out: { type: 'string' },
        runs: { type: 'string' },
        'big-runs': { type: 'string' },
        only: { type: 'string' },
        help: { type: 'boolean', default: false },
      },
    });
    if (values.help) {
      console.log(USAGE);
      process.exit(0);
    }
    const count = (
      /** @type {string | undefined} */ text,
      /** @type {number} */ fallback,
      /** @type {string} */ flag,
    ) => {
      if (text === undefined) return fallback;
      const n = Number(text);
      if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} must be a whole number ≥ 1, got '${text}'`);
      return n;
    };
    const only =
      values.only === undefined
        ? SCENARIOS.map((_, index) => index + 1)
        : values.only.split(',').map((part) => count(part.trim(), 0, '--only'));
    if (only.some((n) => n > SCENARIOS.length))
      throw new Error(`--only takes scenario numbers 1 to ${SCENARIOS.length}`);
    return {
      quick: values.quick,
      out: resolve(
        values.out ??
          (values.quick ? join(tmpdir(), `ralph-bench-quick-${process.pid}.md`) : join(BENCH_DIR, 'RESULTS.md')),
      ),
      runs: count(values.runs, values.quick ? 1 : 5, '--runs'),
      bigRuns: count(values['big-runs'], values.quick ? 1 : 3, '--big-runs'),
      only,
    };
  } catch (error) {
    console.error(`bench: ${/** @type {Error} */ (error).message}\n${USAGE}`);
    process.exit(64);
  }
}

/** Whether a command exists on PATH. */
function hasCommand(/** @type {string} */ name) {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Which ralph is measured: its version and commit. */
function describeBuild() {
  const { version } = JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8'));
  let commit = 'unknown commit';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: PACKAGE_ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {}
  return `ralph ${version} (${commit})`;
}

async function main() {
  const settings = readSettings();
  const caps = detectRalph();
  const hasJq = hasCommand('jq');
  const hasTime = hasGnuTime();
  if (!hasJq) console.error('bench: jq is not installed, so the bash reference loop is skipped (apt-get install jq)');
  if (!hasTime)
    console.error('bench: /usr/bin/time is not installed, so peak RSS is not measured (apt-get install time)');

  const ws = createWorkspace();
  const began = Date.now();
  const stop = (/** @type {NodeJS.Signals} */ signal) => {
    const child = currentChild();
    const finish = () => {
      ws.dispose();
      process.exit(signal === 'SIGINT' ? 130 : 143);
    };
    if (!child || child.exitCode !== null) return finish();
    child.once('exit', finish);
    child.kill('SIGTERM');
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);

  /** @type {import('./lib/loops.mjs').Context} */
  const ctx = {
    ws,
    caps,
    quick: settings.quick,
    runs: settings.runs,
    bigRuns: settings.bigRuns,
    hasJq,
    hasTime,
    progress: (message) => console.error(`[${((Date.now() - began) / 1000).toFixed(0).padStart(4)} s] ${message}`),
  };
  const rows = [];
  const targets = [];
  const notes = [];
  try {
    for (const [index, scenario] of SCENARIOS.entries()) {
      if (!settings.only.includes(index + 1)) continue;
      // Each scenario on a settled disk: the one before it deleted gigabytes (of output, of
      // repositories), and on a file system that discards as it deletes (ext4 -o discard here) its
      // journal then slows the next one's renames and creates: ralph's start, not Node's.
      execFileSync('sync');
      const result = await scenario(ctx);
      rows.push(...result.rows);
      targets.push(...result.targets);
      notes.push(...(result.notes ?? []));
    }
  } finally {
    ws.dispose();
  }

  const streamJson =
    caps.streamJsonArgs === undefined
      ? 'none in this build'
      : `ralph run ${caps.streamJsonArgs.join(' ') || '(default)'}`;
  notes.push(
    `ralph was run as \`ralph run --max-iterations N --max-stuck 1000000${caps.textArgs.length ? ` ${caps.textArgs.join(' ')}` : ''}\` for text output; stream-json: ${streamJson}; \`ralph status\`: ${caps.hasStatus ? 'present' : 'not in this build'}.`,
    'The bash loop is `bench/reference-ralph.sh`; both loops call the same fake agent (`bench/agents/`) as `claude` first on PATH, in fresh temporary git repositories, stdout to /dev/null.',
    'Peak RSS is GNU time’s “Maximum resident set size”: the largest single process of the measured tree.',
  );
  const section = renderMarkdown({
    machine: describeMachine(),
    build: describeBuild(),
    settings: settings.quick
      ? 'quick (one run each, small sizes — not a result)'
      : `${settings.runs} per cheap scenario, ${settings.bigRuns} per big one`,
    rows,
    targets,
    notes,
  });
  writeResults(settings.out, section);
  console.log(renderTable(rows));
  console.log('');
  console.log(renderTargets(targets));
  console.log(`\nwritten to ${settings.out} in ${((Date.now() - began) / 1000).toFixed(0)} s`);
}

main().catch((error) => {
  console.error(`bench: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
