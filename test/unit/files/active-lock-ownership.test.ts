import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, readFile, rm, unlink, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { processStartTime } from '../../../src/process/proc.js';
import type { KernelLock } from '../../../src/files/kernel-lock.js';
import {
  acquireActiveLock,
  ActiveLock,
  currentOwner,
  isLockLive,
  readLiveActive,
  releaseActiveLock,
  type ActiveFile,
} from '../../../src/files/active-lock.js';

// The lock is a file adapter over the real process table: these tests use real files in a
// temporary folder and real processes (this one, live; a child that has ended; a reused pid).

const folders: string[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await Promise.all(folders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })));
});

/** `.ralph-active` in a fresh work tree (`<root>/ralph/.ralph-active`: the root names the kernel lock). */
async function lockPath(): Promise<string> {
  const folder = await mkdtemp(join(tmpdir(), 'ralph-active-lock-'));
  folders.push(folder);
  await mkdir(join(folder, 'ralph'));
  return join(folder, 'ralph', '.ralph-active');
}

/** Takes the lock, keeps its kernel half for release at the end of the test, and gives the warning. */
async function take(path: string): Promise<{ warning?: string }> {
  const { kernel, warning } = await acquireActiveLock(path, mine());
  held.push(kernel);
  return warning === undefined ? {} : { warning };
}
const held: KernelLock[] = [];
afterEach(async () => {
  await Promise.all(held.splice(0).map((lock) => lock.release()));
});

const loopState = { iteration: 0, thisRun: 0, maxIterations: 5, stuckCount: 0, mode: 'implement' } as const;

/** A lock as this very process writes it. */
function mine(marker = 'run-mine'): ActiveFile {
  return { ...currentOwner(marker), startedAt: '2026-01-01T00:00:00.000Z', ...loopState };
}

/** A process that ran and has ended: its pid and the start time it had. */
async function endedProcess(): Promise<{ pid: number; startTime: string }> {
  const child = spawn('sleep', ['300'], { stdio: 'ignore' });
  const pid = child.pid!;
  const startTime = processStartTime(pid)!;
  child.kill('SIGKILL');
  await once(child, 'exit');
  return { pid, startTime };
}

/** A running process whose environment carries the run marker, as an agent of that run would, working in `cwd`. */
function markedProcess(marker: string, cwd: string): ChildProcess {
  const child = spawn('sleep', ['300'], {
    cwd,
    stdio: 'ignore',
    env: { ...process.env, RALPH_RUN_MARKER: `${marker}:agent-1` },
  });
  children.push(child);
  return child;
}

const stored = async (path: string) => JSON.parse(await readFile(path, 'utf8')) as ActiveFile;
const leftovers = async (path: string) =>
  (await readdir(join(path, '..'))).filter((name) => name !== '.ralph-active').sort();
const tookOver = (who: string) => ({ warning: `took over a stale ralph/.ralph-active left by ${who}` });

describe('whose lock is live', () => {
  it("this process's own lock is live", () => {
    expect(isLockLive(mine())).toBe(true);
  });

  it('names this process: its pid, its start time, this host and the run marker', () => {
    expect(currentOwner('run-7')).toEqual({
      pid: process.pid,
      startTime: processStartTime(process.pid),
      host: hostname(),
      marker: 'run-7',
    });
  });

  it('a lock whose process has ended is stale', async () => {
    expect(isLockLive({ ...mine(), ...(await endedProcess()) })).toBe(false);
  });

  it('a lock whose pid was reused by another process is stale', () => {
    // This process runs with the lock's pid, but it is not the process that started at that time.
    expect(isLockLive({ ...mine(), startTime: '12345@an-earlier-boot' })).toBe(false);
  });

  it('a lock from another host is stale, even when a process here has its pid and start time', () => {
    expect(isLockLive({ ...mine(), host: 'far-away' })).toBe(false);
  });

  it('a lock from an older ralph, which wrote no start time, is stale even though its pid runs', () => {
    const { startTime: _dropped, ...older } = mine();
    expect(isLockLive(older)).toBe(false);
  });
});

describe('reading the running loop', () => {
  it('reads a live lock whole', async () => {
    const path = await lockPath();
    await writeFile(path, JSON.stringify({ ...mine(), iteration: 3, agentGroup: 4242 }));
    expect(await readLiveActive(path)).toEqual({ ...mine(), iteration: 3, agentGroup: 4242 });
  });

  it.each([
    ['no lock file', undefined],
    ['a stale lock', JSON.stringify({ ...mine(), startTime: '1@an-earlier-boot' })],
    ['a lock that is not JSON', '{"pid": 12'],
    ['a lock holding no pid', JSON.stringify({ ...mine(), pid: undefined })],
  ])('sees no running loop in %s', async (_case, text) => {
    const path = await lockPath();
    if (text !== undefined) await writeFile(path, text);
    expect(await readLiveActive(path)).toBeUndefined();
  });
});

describe('taking the lock', () => {
  it('writes the whole lock as a JSON text file, with no warning and no temporary file left', async () => {
    const path = await lockPath();
    expect(await take(path)).toEqual({});
    expect(await readFile(path, 'utf8')).toBe(`${JSON.stringify(mine(), null, 2)}\n`);
    expect(await leftovers(path)).toEqual([]);
  });

  it('refuses while another run holds the kernel lock, naming the pid its file describes, and leaves its file alone', async () => {
    const path = await lockPath();
    await take(path);
    const held = JSON.stringify({ ...mine('run-held'), iteration: 4 });
    await writeFile(path, held);
    await expect(acquireActiveLock(path, mine())).rejects.toMatchObject({
      kind: 'setup',
      message: `another ralph run is active in this repository (pid ${process.pid}, iteration 4)`,
      hint: `wait for it to finish or stop it (kill ${process.pid}); ralph/.ralph-active is removed when it ends`,
    });
    expect(await readFile(path, 'utf8')).toBe(held);
    expect(await leftovers(path)).toEqual([]);
  });

  it.each([
    ['deleted', undefined],
    ['replaced by one naming pid 1', JSON.stringify({ ...mine(), pid: 1 })],
  ])('refuses while another run holds the kernel lock, its file %s', async (_case, text) => {
    const path = await lockPath();
    await take(path);
    await unlink(path);
    if (text !== undefined) await writeFile(path, text);
    await expect(acquireActiveLock(path, mine())).rejects.toMatchObject({
      kind: 'setup',
      message: 'another ralph run is active in this work tree (its ralph/.ralph-active is missing or does not name it)',
    });
  });

  it.each([
    ['pid 1', { pid: 1, startTime: processStartTime(1) }],
    ['this very process, live', {}],
    ["this process's parent", { pid: process.ppid, startTime: processStartTime(process.ppid) }],
  ])('ignores a lock naming %s as forged, and signals nothing', async (_case, fields) => {
    const path = await lockPath();
    const pid = (fields as { pid?: number }).pid ?? process.pid;
    await writeFile(path, JSON.stringify({ ...mine('run-forged'), ...fields }));
    expect(await take(path)).toEqual({
      warning: `ralph/.ralph-active names pid ${pid}, which is not a ralph run of this repository: the file was forged or is stale; ignoring it`,
    });
    expect(await stored(path)).toEqual(mine());
  });

  it('takes over the lock of a run that has ended, and says whose it was', async () => {
    const path = await lockPath();
    const ended = await endedProcess();
    await writeFile(path, JSON.stringify({ ...mine('run-ended'), ...ended }));
    expect(await take(path)).toEqual(tookOver(`pid ${ended.pid}, which is no longer running`));
    expect(await stored(path)).toEqual(mine());
    expect(await leftovers(path)).toEqual([]);
  });

  it('takes over the lock of an older ralph, whose pid still runs but which recorded no start time', async () => {
    const path = await lockPath();
    const alive = markedProcess('run-unrelated', tmpdir());
    await writeFile(path, JSON.stringify({ pid: alive.pid, startedAt: '2025-01-01T00:00:00Z', iteration: 2 }));
    expect(await take(path)).toEqual(tookOver(`an older ralph (pid ${alive.pid}), which recorded no start time`));
    expect(await stored(path)).toEqual(mine());
  });

  it('takes over a lock that cannot be read', async () => {
    const path = await lockPath();
    await writeFile(path, '');
    expect(await take(path)).toEqual(tookOver('an unreadable lock file'));
    expect(await stored(path)).toEqual(mine());
  });

  it.each([0, -3, 2.5, '77'])('takes a lock whose pid is %j for an unreadable one', async (pid) => {
    const path = await lockPath();
    await writeFile(path, JSON.stringify({ ...mine(), pid }));
    expect(await take(path)).toEqual(tookOver('an unreadable lock file'));
  });

  it('ends what the stale run left running (its marked processes), and says so', async () => {
    const path = await lockPath();
    const agent = markedProcess('run-crashed', join(path, '..'));
    const exited = once(agent, 'exit');
    await writeFile(path, JSON.stringify({ ...mine('run-crashed'), ...(await endedProcess()) }));
    const { warning } = await take(path);
    expect(warning).toMatch(
      new RegExp(`which is no longer running; ended 1 process that its run left running: ${agent.pid} sleep$`),
    );
    expect(await exited).toEqual([null, 'SIGTERM']);
  });

  it("ends nothing of another repository's run whose marker a stale lock carries", async () => {
    const path = await lockPath();
    const elsewhere = await mkdtemp(join(tmpdir(), 'ralph-other-repo-'));
    folders.push(elsewhere);
    const bystander = markedProcess('run-other', elsewhere);
    await writeFile(
      path,
      JSON.stringify({ ...mine('run-other'), ...(await endedProcess()), agentGroup: bystander.pid }),
    );
    const { warning } = await take(path);
    expect(warning).toMatch(/which is no longer running$/);
    expect(bystander.exitCode).toBeNull();
    expect(processStartTime(bystander.pid!)).toBeDefined();
  });

  it("ends nothing for a lock from another host: a process here with that run's marker is not that run's", async () => {
    const path = await lockPath();
    const bystander = markedProcess('run-far', join(path, '..'));
    await writeFile(path, JSON.stringify({ ...mine('run-far'), pid: 31337, host: 'far-away' }));
    expect(await take(path)).toEqual(tookOver('pid 31337 on host far-away, whose processes cannot be seen from here'));
    expect(bystander.exitCode).toBeNull();
    expect(processStartTime(bystander.pid!)).toBeDefined();
  });

  it('names the host of a lock that recorded a start time but no host as unknown', async () => {
    const path = await lockPath();
    const { host: _dropped, ...hostless } = { ...mine(), pid: 31337 };
    await writeFile(path, JSON.stringify(hostless));
    expect(await take(path)).toEqual(tookOver('pid 31337 on host unknown, whose processes cannot be seen from here'));
  });

  it('fails, releasing the kernel lock, when the description cannot be written', async () => {
    const path = await lockPath();
    // A folder where the temporary file goes: it is not removed (only a file or a link is), so the write fails.
    await mkdir(`${path}.${process.pid}.tmp`);
    await expect(acquireActiveLock(path, mine())).rejects.toMatchObject({ code: 'ERR_FS_EISDIR' });
    await rm(`${path}.${process.pid}.tmp`, { recursive: true });
    expect(await take(path)).toEqual({});
  });
});

describe('taking the lock on a full filesystem', () => {
  const mounts: string[] = [];
  afterEach(() => {
    for (const folder of mounts.splice(0)) execFileSync('umount', ['-l', folder]);
  });

  /** A lock path in a folder that is a small tmpfs of its own, mounted with `options`. */
  async function lockOnTmpfs(options: string): Promise<{ path: string; folder: string }> {
    const path = await lockPath();
    const folder = join(path, '..');
    execFileSync('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', folder]);
    mounts.push(folder);
    return { path, folder };
  }

  // Mounting a tmpfs needs root, as CI has.
  it.skipIf(process.getuid?.() !== 0)(
    'fails with ENOSPC, and leaves no temporary file, when no inode is left for the lock',
    async () => {
      // One inode: the folder's. The lock's temporary file needs a second.
      const { path, folder } = await lockOnTmpfs('size=64k,nr_inodes=1');
      await expect(take(path)).rejects.toMatchObject({ code: 'ENOSPC' });
      expect(await readdir(folder)).toEqual([]);
    },
  );

  it.skipIf(process.getuid?.() !== 0)(
    'fails with ENOSPC, and leaves no temporary file, when no byte is left to write the lock',
    async () => {
      // One page, filled: the temporary file is created, and writing into it fails.
      const { path, folder } = await lockOnTmpfs('size=4k');
      await writeFile(join(folder, 'filler'), Buffer.alloc(4096));
      await expect(take(path)).rejects.toMatchObject({ code: 'ENOSPC' });
      expect(await readdir(folder)).toEqual(['filler']);
    },
  );
});

describe('holding and releasing the lock', () => {
  it('appends the whole description on each update, keeping the fields not changed, with no temporary file left', async () => {
    const path = await lockPath();
    const lock = new ActiveLock(path, mine());
    await lock.acquire();
    await lock.update({ iteration: 2, stuckCount: 1 });
    await lock.update({ agentGroup: 777 });
    const changed = { ...mine(), iteration: 2, stuckCount: 1 };
    const expected = { ...changed, agentGroup: 777 };
    expect(await readFile(path, 'utf8')).toBe(
      `${JSON.stringify(mine(), null, 2)}\n${JSON.stringify(changed)}\n${JSON.stringify(expected)}\n`,
    );
    expect(await leftovers(path)).toEqual([]);
    await lock.release();
  });

  it('removes its own lock when released', async () => {
    const path = await lockPath();
    await take(path);
    await releaseActiveLock(path, process.pid);
    expect(await leftovers(path)).toEqual([]);
    await expect(readFile(path)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it("leaves a lock that another run holds now, and a lock it cannot read: neither is this run's", async () => {
    const path = await lockPath();
    const theirs = JSON.stringify({ ...mine(), pid: process.pid + 1 });
    await writeFile(path, theirs);
    await releaseActiveLock(path, process.pid);
    expect(await readFile(path, 'utf8')).toBe(theirs);
    await writeFile(path, 'not json');
    await releaseActiveLock(path, process.pid);
    expect(await readFile(path, 'utf8')).toBe('not json');
  });

  it('releases quietly when the lock is already gone', async () => {
    const path = await lockPath();
    await expect(releaseActiveLock(path, process.pid)).resolves.toBeUndefined();
    expect(await leftovers(path)).toEqual([]);
  });
});
