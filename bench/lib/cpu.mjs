// A loop's own CPU: the whole process tree's (GNU time counts every child waited for), less what
// the fake agent reports for itself and its children (bash's `times`, appended to a file). What is
// left is the loop runner and the commands it runs (git), the same measure for ralph and its peers.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { GNU_TIME } from './measure.mjs';

let sequence = 0;

/** Whether the CPU of a run can be measured here (GNU time). */
export function canCountCpu() {
  return existsSync(GNU_TIME);
}

/**
 * Runs `file args` under GNU time; resolves to its wall time, its tree's CPU and the agent's, in ms.
 * `env.BENCH_TIMES` must name the file the fake agent appends its `times` to.
 * @param {string} file @param {string[]} args
 * @param {{ cwd: string, env: NodeJS.ProcessEnv, scratch: string, okCodes?: number[], timeoutMs?: number }} options
 */
export async function runCounted(file, args, { cwd, env, scratch, okCodes = [0, 1], timeoutMs = 600_000 }) {
  const report = join(scratch, `cpu-${process.pid}-${++sequence}.txt`);
  const agentTimes = /** @type {string} */ (env.BENCH_TIMES);
  rmSync(agentTimes, { force: true });
  const started = process.hrtime.bigint();
  const code = await new Promise((resolve, reject) => {
    const child = spawn(GNU_TIME, ['-f', '%U %S', '-o', report, file, ...args], { cwd, env, stdio: 'ignore' });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('exit', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  const text = readFileSync(report, 'utf8').trim().split('\n').at(-1) ?? '';
  rmSync(report, { force: true });
  if (!okCodes.includes(/** @type {number} */ (code)))
    throw new Error(`${file} ${args.join(' ')} exited ${code}: ${text}`);
  const [user, system] = text.split(' ').map(Number);
  return { wallMs, treeCpuMs: (user + system) * 1000, agentCpuMs: agentCpu(agentTimes), calls: agentCalls(env) };
}

/** The CPU the fake agent reported, summed over its calls (`times`: `0m0.001s 0m0.002s` lines). */
function agentCpu(/** @type {string} */ path) {
  if (!existsSync(path)) return 0;
  let seconds = 0;
  for (const match of readFileSync(path, 'utf8').matchAll(/(\d+)m([\d.,]+)s/g))
    seconds += Number(match[1]) * 60 + Number(match[2].replace(',', '.'));
  return seconds * 1000;
}

/** How many times the agent was called, from its stamps (BENCH_STAMPS), when it keeps them. */
function agentCalls(/** @type {NodeJS.ProcessEnv} */ env) {
  const stamps = env.BENCH_STAMPS;
  if (!stamps || !existsSync(stamps)) return undefined;
  return readFileSync(stamps, 'utf8')
    .split('\n')
    .filter((line) => line.startsWith('s ')).length;
}
