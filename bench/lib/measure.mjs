// Runs one command and measures it: wall time from spawn to exit, and, through GNU time, the
// peak resident set size. Output goes to /dev/null or a file, never through this process, so
// the benchmark itself does not compete for the two cores with what it measures.
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { watchTreeMemory } from './tree-memory.mjs';

export const GNU_TIME = '/usr/bin/time';
let sequence = 0;
/** @type {import('node:child_process').ChildProcess | undefined} */
let current;

/** Whether GNU time is installed (it reports "Maximum resident set size"). */
export function hasGnuTime() {
  return existsSync(GNU_TIME);
}

/** The child being measured right now, so an interrupted benchmark can stop it. */
export function currentChild() {
  return current;
}

/**
 * @typedef {object} MeasureOptions
 * @property {string} cwd
 * @property {NodeJS.ProcessEnv} env
 * @property {string} scratch  a directory for the time report and the captured stderr
 * @property {boolean} [rss]   measure peak RSS with GNU time
 * @property {number[]} [okCodes]  exit codes that mean the command did what was asked (default [0])
 * @property {number} [timeoutMs]
 * @property {boolean} [treeRss]  sample the summed resident sets of the whole process tree
 * @property {boolean} [keepStdout]  keep stdout in the scratch folder, its end shown on failure
 *   (a command whose refusal is on stdout; never one printing gigabytes)
 */

/**
 * Runs `file args` and resolves to its wall time in milliseconds and, with `rss`, the largest
 * resident set (in MB) of it or any child it waited for. Rejects, with the end of its stderr,
 * when the exit code is not one of `okCodes`.
 * @param {string} file @param {string[]} args @param {MeasureOptions} options
 * @returns {Promise<{ wallMs: number, rssMb?: number, treeRssMb?: number, code: number }>}
 */
export async function measure(file, args, options) {
  const id = ++sequence;
  const timeReport = join(options.scratch, `time-${id}.txt`);
  const stderrPath = join(options.scratch, `stderr-${id}.txt`);
  const useTime = options.rss === true && hasGnuTime();
  const [command, argv] = useTime ? [GNU_TIME, ['-v', '-o', timeReport, file, ...args]] : [file, args];
  const stderrFd = openSync(stderrPath, 'w');
  const stdoutPath = join(options.scratch, `stdout-${id}.txt`);
  const stdout = options.keepStdout ? openSync(stdoutPath, 'w') : 'ignore';
  const started = process.hrtime.bigint();
  /** @type {number | undefined} */
  let treeRssMb;
  let code;
  /** @type {ReturnType<typeof watchTreeMemory> | undefined} */
  let tree;
  try {
    code = await new Promise((resolve, reject) => {
      const child = spawn(command, argv, { cwd: options.cwd, env: options.env, stdio: ['ignore', stdout, stderrFd] });
      current = child;
      if (options.treeRss && child.pid !== undefined) tree = watchTreeMemory(child.pid);
      const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 15 * 60_000);
      child.once('error', reject);
      child.once('exit', (exitCode, signal) => {
        clearTimeout(timer);
        resolve(exitCode ?? 128 + (signal === 'SIGKILL' ? 9 : 15));
      });
    });
  } finally {
    treeRssMb = tree?.stop();
    current = undefined;
    closeSync(stderrFd);
    if (typeof stdout === 'number') closeSync(stdout);
  }
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  const treeMemory = treeRssMb === undefined ? {} : { treeRssMb };
  if (!(options.okCodes ?? [0]).includes(code)) {
    const stderr = readFileSync(stderrPath, 'utf8').slice(-2000).trim();
    const printed = options.keepStdout ? failureOutput(readFileSync(stdoutPath, 'utf8')) : '';
    throw new Error(
      `${[file, ...args].join(' ').slice(0, 200)} exited ${code}${stderr ? `:\n${stderr}` : ''}${printed}`,
    );
  }
  if (!useTime) return { wallMs, code, ...treeMemory };
  const report = readFileSync(timeReport, 'utf8');
  const kb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(report)?.[1]);
  return { wallMs, code, ...treeMemory, ...(Number.isFinite(kb) ? { rssMb: kb / 1024 } : {}) };
}

/** Throws unless the log holds exactly the agent's output: a measurement of less work is no measurement. */
export function expectLogSize(/** @type {string} */ path, /** @type {number} */ bytes, /** @type {string} */ who) {
  const size = existsSync(path) ? statSync(path).size : 0;
  if (size !== bytes)
    throw new Error(`${who} logged ${size} of the agent's ${bytes} bytes in ${path}: it did not read the whole output`);
}

/**
 * A failed run's output: its refusals (`ralph: …`, a parallel loop's prefixed ones too), wherever
 * they were printed (a loop that failed at its start said so long before the end), then its end.
 */
function failureOutput(/** @type {string} */ text) {
  const refusals = text.split('\n').filter((line) => /(^|│ )ralph: /.test(line));
  const said = refusals.length > 0 ? `\nits refusals:\n${refusals.slice(-20).join('\n')}` : '';
  return `${said}\nits output ended:\n${text.slice(-4000)}`;
}
