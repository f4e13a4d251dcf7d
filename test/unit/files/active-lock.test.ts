import { execFileSync } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ActiveLock,
  currentOwner,
  lockRefusal,
  readDeadActive,
  readLiveActive,
} from '../../../src/files/active-lock.js';

const cleanup: string[] = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function heldLock(): Promise<ActiveLock> {
  const dir = await mkdtemp(join(tmpdir(), 'ralph-active-lock-'));
  cleanup.push(dir);
  await mkdir(join(dir, 'ralph'));
  const lock = new ActiveLock(join(dir, 'ralph', '.ralph-active'), {
    ...currentOwner('run-1'),
    startedAt: '2026-01-01T00:00:00Z',
    iteration: 0,
    thisRun: 0,
    maxIterations: 5,
    stuckCount: 0,
    mode: 'implement',
  });
  expect(await lock.acquire()).toEqual({});
  return lock;
}

const content = (lock: ActiveLock) => readFile(lock.path, 'utf8').catch(() => undefined);

/** A link to a file of the user's, planted where the lock is (the agent can write ralph/); the file's path. */
async function plantedLink(lock: ActiveLock): Promise<string> {
  const victim = join(await mkdtemp(join(tmpdir(), 'ralph-victim-')), 'bashrc');
  cleanup.push(join(victim, '..'));
  await writeFile(victim, '# mine\n');
  await rm(lock.path);
  await symlink(victim, lock.path);
  return victim;
}

describe('ActiveLock.release', () => {
  it('waits for the writes still in flight, so none brings the file back after it is removed', async () => {
    const lock = await heldLock();
    // Usage reports are fired and forgotten (onUsage): a chain of rewrites may still be running.
    const pending = Array.from({ length: 20 }, (_, index) => lock.update({ iteration: index + 1 }));
    await lock.release();
    expect(await content(lock)).toBeUndefined();
    await Promise.all(pending);
    expect(await content(lock)).toBeUndefined();
  });

  it('writes nothing for an update that comes after it', async () => {
    const lock = await heldLock();
    await lock.release();
    await lock.update({ iteration: 3 });
    expect(await content(lock)).toBeUndefined();
  });

  it('still releases the kernel lock when a write in flight failed, leaving what is not its own', async () => {
    const lock = await heldLock();
    // A link planted in place of the lock: the append refuses it, and the link is not this run's to remove.
    const victim = await plantedLink(lock);
    const update = lock.update({ iteration: 1 });
    await lock.release();
    await expect(update).rejects.toThrow(/symbolic link/);
    expect(await readFile(victim, 'utf8')).toBe('# mine\n');
    expect(await lockRefusal(lock.path)).toBeUndefined();
  });

  it("an update after release writes nothing and settles quietly, whatever the last write's fate", async () => {
    const lock = await heldLock();
    const victim = await plantedLink(lock);
    const failed = lock.update({ iteration: 1 });
    await lock.release();
    await expect(failed).rejects.toThrow(/symbolic link/);
    // A late usage report: no warning about a write that was never this one.
    await expect(lock.update({ iteration: 2 })).resolves.toBeUndefined();
    expect(await readFile(victim, 'utf8')).toBe('# mine\n');
  });

  it('leaves a lock that another run holds now: only its own is removed', async () => {
    const lock = await heldLock();
    const other = JSON.stringify({ ...JSON.parse((await content(lock))!), pid: process.pid + 1 });
    await writeFile(lock.path, other);
    await lock.release();
    expect(await content(lock)).toBe(other);
  });
});

describe('lockRefusal: what a start would meet, taking nothing', () => {
  it('names the live run that holds the lock, and how to stop it', async () => {
    const lock = await heldLock();
    await lock.update({ iteration: 4 });
    const refusal = await lockRefusal(lock.path);
    expect(refusal).toMatchObject({
      kind: 'setup',
      message: `another ralph run is active in this repository (pid ${process.pid}, iteration 4)`,
      hint: `wait for it to finish or stop it (kill ${process.pid}); ralph/.ralph-active is removed when it ends`,
    });
    expect(await content(lock)).toBeDefined();
  });

  it('finds nothing to refuse once the run has released the kernel lock, whatever the file says', async () => {
    const lock = await heldLock();
    await lock.release();
    expect(await lockRefusal(lock.path)).toBeUndefined();
    await writeFile(lock.path, JSON.stringify({ ...currentOwner('forged'), startedAt: '', iteration: 1 }));
    expect(await lockRefusal(lock.path)).toBeUndefined();
  });

  it('refuses while the run holds the kernel lock, though the agent deleted its file', async () => {
    const lock = await heldLock();
    await rm(lock.path);
    expect(await lockRefusal(lock.path)).toMatchObject({
      kind: 'setup',
      message: 'another ralph run is active in this work tree (its ralph/.ralph-active is missing or does not name it)',
    });
    await lock.release();
  });
});

describe('readDeadActive', () => {
  it('names a run whose process is gone, but never while the kernel lock says a run lives', async () => {
    const lock = await heldLock();
    // What the agent can write while its run goes on: a record naming a process that is not running.
    const forged = {
      pid: 2 ** 22 + 7,
      startTime: '1',
      host: 'elsewhere',
      startedAt: '2020-01-01T00:00:00Z',
      iteration: 7,
    };
    await writeFile(lock.path, JSON.stringify(forged));
    expect(await readDeadActive(lock.path)).toBeUndefined();
    await lock.release();
    await writeFile(lock.path, JSON.stringify(forged));
    expect(await readDeadActive(lock.path)).toMatchObject({ iteration: 7 });
  });
});

describe('ActiveLock.update', () => {
  it('never writes through a link planted in place of the lock: the update is refused, the target stays', async () => {
    const lock = await heldLock();
    const victim = await plantedLink(lock);
    await expect(lock.update({ iteration: 2 })).rejects.toThrow(/symbolic link/);
    expect(await readFile(victim, 'utf8')).toBe('# mine\n');
    await lock.release();
  });

  it('appends the whole description a change, which every reader takes from the last line', async () => {
    const lock = await heldLock();
    await lock.update({ iteration: 2 });
    await lock.update({ agentGroup: 4242 });
    const lines = (await content(lock))!.trimEnd().split('\n');
    expect(JSON.parse(lines.at(-1)!)).toMatchObject({ iteration: 2, agentGroup: 4242, pid: process.pid });
    // A line cut short (read while it was being appended) is passed over.
    await writeFile(lock.path, `${(await content(lock))!}{"pid": ${process.pid}, "iter`);
    expect(await lockRefusal(lock.path)).toMatchObject({ message: expect.stringContaining('iteration 2)') });
    await lock.release();
  });
});

describe('a FIFO in place of the lock (the agent can write ralph/)', () => {
  const refused = { kind: 'io', message: expect.stringContaining('.ralph-active is a FIFO (named pipe)') };
  const plantFifo = async (lock: ActiveLock) => {
    await rm(lock.path, { force: true });
    execFileSync('mkfifo', [lock.path]);
  };

  it('never waits on it: the run releases its lock and leaves the FIFO, which is not its own', async () => {
    const lock = await heldLock();
    await plantFifo(lock);
    expect(await lockRefusal(lock.path)).toMatchObject({
      kind: 'setup',
      message: expect.stringContaining('its ralph/.ralph-active is missing or does not name it'),
    });
    await expect(lock.update({ iteration: 2 })).rejects.toMatchObject(refused);
    await lock.release();
    expect((await lstat(lock.path)).isFIFO()).toBe(true);
    expect(await lockRefusal(lock.path)).toBeUndefined();
  });

  it('refuses it at the next start and in status, naming it, and holds no lock after', async () => {
    const lock = await heldLock();
    await lock.release();
    await plantFifo(lock);
    await expect(readLiveActive(lock.path)).rejects.toMatchObject(refused);
    await expect(readDeadActive(lock.path)).rejects.toMatchObject(refused);
    const next = new ActiveLock(lock.path, {
      ...currentOwner('run-2'),
      startedAt: '',
      iteration: 0,
      thisRun: 0,
      maxIterations: 1,
      stuckCount: 0,
      mode: 'implement',
    });
    await expect(next.acquire()).rejects.toMatchObject(refused);
    expect(await lockRefusal(lock.path)).toBeUndefined();
  });
});
