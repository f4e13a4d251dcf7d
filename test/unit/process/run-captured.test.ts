import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { runCaptured } from '../../../src/process/run-captured.js';
import { isAlive, waitFor } from '../../helpers/e2e.js';

const sh = (script: string, options: Partial<Parameters<typeof runCaptured>[2]> = {}) =>
  runCaptured('/bin/sh', ['-c', script], { maxBytes: 1024 * 1024, timeoutMs: 20_000, ...options });

async function scratch(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'ralph-run-captured-'));
}

/** The real setTimeout, kept before a test fakes the timers. */
const realSetTimeout = globalThis.setTimeout;

/**
 * Fakes the timers runCaptured sets from here on: its time limit passes when the test says so,
 * once the program has done what the test waits for, not after some milliseconds a loaded machine
 * may need just to start it. Returns what lets the time limit pass.
 */
function holdTheClock(): { pass: (ms: number) => void } {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  return { pass: (ms) => vi.advanceTimersByTime(ms) };
}

/** Waits on the real clock (the fake one stands still) until the condition holds. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => realSetTimeout(resolve, 25));
}

/**
 * More than a pipe holds (64 KiB): once a script has written it, runCaptured has read what the
 * script printed before it — a stop after that cannot lose it unread, however slow the machine.
 */
const FLOOD = 'head -c 1048576 /dev/zero';
const FLOOD_ROOM = 4 * 1024 * 1024;

const written = (file: string) => existsSync(file) && readFileSync(file, 'utf8').trim() !== '';

/** The pid a script wrote to a file, once it is there. */
async function pidIn(file: string): Promise<number> {
  await waitFor(() => existsSync(file) && readFileSync(file, 'utf8').trim() !== '');
  return Number(readFileSync(file, 'utf8'));
}

describe('runCaptured', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('keeps both streams as printed, and a non-zero exit is an answer, not a failure', async () => {
    const result = await sh('printf "out\\n"; printf "err" >&2; exit 3');
    expect(result).toEqual({
      exitCode: 3,
      signal: undefined,
      stdout: 'out\n',
      stderr: 'err',
      stopped: undefined,
      error: undefined,
    });
  });

  it('runs in the folder with exactly the environment given, nothing of its own', async () => {
    const dir = await scratch();
    const result = await sh('pwd; echo "${ONLY-}|${HOME-unset}"', { cwd: dir, env: { ONLY: 'this' } });
    expect(result.stdout).toBe(`${dir}\nthis|unset\n`);
  });

  it('feeds the input on stdin, and stdin is closed when there is none', async () => {
    const echoed = await runCaptured('cat', [], { maxBytes: 1024, timeoutMs: 20_000, input: 'a line\nand more' });
    expect(echoed.stdout).toBe('a line\nand more');
    // `cat` with no input must not wait for a terminal: it reads end-of-file at once.
    const none = await runCaptured('cat', [], { maxBytes: 1024, timeoutMs: 20_000 });
    expect(none).toMatchObject({ exitCode: 0, stdout: '', stopped: undefined });
  });

  it('a program that reads none of its input still answers', async () => {
    const result = await sh('exit 0', { input: 'x'.repeat(4 * 1024 * 1024) });
    expect(result).toMatchObject({ exitCode: 0, stopped: undefined, error: undefined });
  });

  it('keeps at most maxBytes of each stream and stops a program that prints more', async () => {
    const dir = await scratch();
    // `yes` would print for ever: only the cap ends it (not the 20 s limit: `stopped` says which).
    const result = await sh(`echo $$ > ${dir}/pid; exec yes`, { maxBytes: 64 * 1024 });
    expect(result.stopped).toBe('overflow');
    expect(result.stdout.length).toBe(64 * 1024);
    expect(result.stdout.startsWith('y\ny\n')).toBe(true);
    expect(result).toMatchObject({ exitCode: undefined, signal: 'SIGKILL' });
    expect(isAlive(await pidIn(join(dir, 'pid')))).toBe(false);
  });

  it('stderr is capped as stdout is', async () => {
    const result = await sh('head -c 300000 /dev/zero | tr "\\0" e >&2; echo done', { maxBytes: 1000 });
    expect(result).toMatchObject({ stopped: 'overflow', stderr: 'e'.repeat(1000) });
  });

  it('ends a program that ignores SIGTERM when the time is up', async () => {
    const dir = await scratch();
    const clock = holdTheClock();
    const script = `trap "" TERM; echo started; ${FLOOD}; echo $$ > ${dir}/pid; sleep 30`;
    const running = sh(script, { timeoutMs: 300, maxBytes: FLOOD_ROOM });
    await until(() => written(join(dir, 'pid')));
    clock.pass(300);
    // Settled by the time limit alone: a SIGTERM and a grace period would leave it waiting (a fake timer).
    const result = await running;
    expect(result).toMatchObject({ stopped: 'timeout', signal: 'SIGKILL', exitCode: undefined });
    expect(result.stdout.startsWith('started\n')).toBe(true);
  });

  it('an abort ends it, and an abort before the start starts nothing', async () => {
    const dir = await scratch();
    const controller = new AbortController();
    const running = sh(`echo $$ > ${dir}/pid; sleep 30`, { signal: controller.signal });
    const pid = await pidIn(join(dir, 'pid'));
    controller.abort();
    expect(await running).toMatchObject({ stopped: 'abort', signal: 'SIGKILL' });
    expect(isAlive(pid)).toBe(false);
    const never = await sh(`touch ${dir}/ran`, { signal: controller.signal });
    expect(never).toMatchObject({ stopped: 'abort', exitCode: undefined });
    expect(existsSync(join(dir, 'ran'))).toBe(false);
  });

  it('whatever the program left in its group is ended as soon as it exits', async () => {
    const dir = await scratch();
    // The grandchild keeps the pipes open: without the group kill the 20 s limit would end this
    // (stopped: 'timeout'), not the program's exit.
    const result = await sh(`sleep 30 & echo $! > ${dir}/pid; echo parent done`);
    expect(result).toMatchObject({ exitCode: 0, stdout: 'parent done\n', stopped: undefined });
    await waitFor(() => !isAlive(Number(readFileSync(join(dir, 'pid'), 'utf8'))));
  });

  it('a stopped launcher takes what it started with it (the group, not the child alone)', async () => {
    const dir = await scratch();
    // Like the npm launcher of a client that starts its real binary and waits for it.
    const clock = holdTheClock();
    const running = sh(`sleep 77 & echo $! > ${dir}/pid; wait`, { timeoutMs: 500 });
    await until(() => written(join(dir, 'pid')));
    clock.pass(500);
    expect(await running).toMatchObject({ stopped: 'timeout', signal: 'SIGKILL' });
    await until(() => !isAlive(Number(readFileSync(join(dir, 'pid'), 'utf8'))));
  });

  it('a grandchild that left the group and holds the pipe cannot hold it past the timeout', async () => {
    const dir = await scratch();
    const clock = holdTheClock();
    // The shell exits once the sleep has left its group (its pid written from inside the new
    // session), so the group kill at the exit cannot reach it.
    const script = `setsid sh -c 'echo $$ > ${dir}/pid; exec sleep 30' & echo $$ > ${dir}/shell;
      while [ ! -s ${dir}/pid ]; do sleep 0.01; done; echo left; ${FLOOD}`;
    const running = sh(script, { timeoutMs: 800, maxBytes: FLOOD_ROOM });
    await until(() => written(join(dir, 'shell')) && !isAlive(Number(readFileSync(join(dir, 'shell'), 'utf8'))));
    clock.pass(800);
    // The program answered, but its output never ended: the time limit is what settles it.
    const result = await running;
    expect(result).toMatchObject({ exitCode: 0, stopped: 'timeout' });
    expect(result.stdout.startsWith('left\n')).toBe(true);
    process.kill(await pidIn(join(dir, 'pid')), 'SIGKILL');
  });

  it('a program that cannot start is a value saying why, never a rejection', async () => {
    const missing = await runCaptured('/nonexistent/ralph-no-such-program', [], { maxBytes: 1024, timeoutMs: 5000 });
    expect(missing).toMatchObject({ exitCode: undefined, signal: undefined, stdout: '', stopped: undefined });
    expect(missing.error?.code).toBe('ENOENT');
    const dir = await scratch();
    const notExecutable = await runCaptured(dir, [], { maxBytes: 1024, timeoutMs: 5000 });
    expect(notExecutable.error?.code).toBe('EACCES');
    const refused = await runCaptured('/bin/echo', ['a\0b'], { maxBytes: 1024, timeoutMs: 5000 });
    expect(refused.error).toBeInstanceOf(Error);
  });
});
