// Which machine the numbers come from: they mean nothing without it.
import { cpus, release, totalmem } from 'node:os';

/** CPU model, cores, memory, OS and Node version, and the date. */
export function describeMachine() {
  const cores = cpus();
  return {
    cpu: cores[0]?.model.trim() || 'unknown CPU',
    cores: cores.length,
    memoryGb: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    os: `${process.platform} ${release()}`,
    node: process.version,
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
  };
}
