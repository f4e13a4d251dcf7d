import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireActiveLock, currentOwner, type ActiveFile } from '../../../src/files/active-lock.js';
import type { KernelLock } from '../../../src/files/kernel-lock.js';
import { removeCgroup, repoHash, runCgroupName } from '../../../src/process/cgroup.js';
import { processStartTime } from '../../../src/process/proc.js';
import { cgroupHome, cgroupWritable } from '../../helpers/cgroup.js';

// A stale lock names a run id; in cgroup mode, what that run left is found by its cgroup's name.
// The lock is a file the agent can forge: the cgroup looked for must be this repository's run's.

const folders: string[] = [];
const children: ChildProcess[] = [];
const cgroups: string[] = [];
const held: KernelLock[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await Promise.all(held.splice(0).map((lock) => lock.release()));
  for (const path of cgroups.splice(0)) await removeCgroup(path);
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

async function folder(prefix: string): Promise<string> {
  const made = await mkdtemp(join(tmpdir(), prefix));
  folders.push(made);
  return made;
}

/** `<root>/ralph/.ralph-active` in a fresh work tree. */
async function lockPath(): Promise<string> {
  const root = await folder('ralph-lock-cgroup-');
  await mkdir(join(root, 'ralph'));
  return join(root, 'ralph', '.ralph-active');
}

/** A live process in the cgroup a run of the repository `identity` made, working outside every work tree. */
async function inRunCgroup(identity: string, runId: string): Promise<ChildProcess> {
  const path = join((cgroupHome as { dir: string }).dir, runCgroupName(repoHash(identity), runId));
  mkdirSync(path);
  cgroups.push(path);
  const child = spawn('sleep', ['300'], { cwd: await folder('ralph-elsewhere-'), stdio: 'ignore' });
  children.push(child);
  writeFileSync(join(path, 'cgroup.procs'), String(child.pid));
  return child;
}

/** A lock whose run has ended (a pid that no longer runs), naming the run `marker`. */
async function staleLock(path: string, marker: string): Promise<void> {
  const child = spawn('sleep', ['300'], { stdio: 'ignore' });
  const pid = child.pid!;
  const startTime = processStartTime(pid)!;
  child.kill('SIGKILL');
  await once(child, 'exit');
  await writeFile(path, JSON.stringify({ ...lock(marker), pid, startTime }));
}

function lock(marker: string): ActiveFile {
  const loop = { iteration: 0, thisRun: 0, maxIterations: 5, stuckCount: 0, mode: 'implement' } as const;
  return { ...currentOwner(marker), startedAt: '2026-01-01T00:00:00.000Z', ...loop };
}

async function take(path: string): Promise<string | undefined> {
  const { kernel, warning } = await acquireActiveLock(path, lock('run-mine'));
  held.push(kernel);
  return warning;
}

describe.skipIf(!cgroupWritable)('a stale lock in cgroup mode', () => {
  it("ends what the stale run of this repository left in its cgroup, whatever the processes' working folder", async () => {
    const path = await lockPath();
    const runId = 'abc123def456';
    const left = await inRunCgroup(dirname(path), runId);
    const exited = once(left, 'exit');
    await staleLock(path, runId);
    expect(await take(path)).toMatch(new RegExp(`ended 1 process that its run left running: ${left.pid} sleep$`));
    expect(await exited).toEqual([null, 'SIGTERM']);
  });

  it("ends nothing of another repository's live run whose run id a forged lock names", async () => {
    const path = await lockPath();
    const runId = 'fedcba987654';
    const other = await lockPath();
    const bystander = await inRunCgroup(dirname(other), runId);
    await staleLock(path, runId);
    expect(await take(path)).toMatch(/which is no longer running$/);
    expect(bystander.exitCode).toBeNull();
    expect(bystander.signalCode).toBeNull();
    expect(processStartTime(bystander.pid!)).toBeDefined();
  });
});
