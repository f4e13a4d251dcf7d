import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { ralphPaths } from '../../../src/files/paths.js';
import { withRecords } from '../../../src/files/record-paths.js';
import type { LoopReporter } from '../../../src/loop/ports.js';
import { noProgress } from '../../../src/loop/run-report.js';
import { withNotices } from '../../../src/outlets/mid-run-notices.js';
import { createNotifier, type Notifier } from '../../../src/outlets/notifier.js';
import type { Happening } from '../../../src/outlets/notification.js';
import { notificationsFor } from '../../../src/outlets/notify-outlet.js';
import { monotonicMs } from '../../../src/process/monotonic-clock.js';
import { finishRun } from '../../../src/run-lifecycle/finish-run.js';
import { Screen } from '../../../src/ui/screen.js';

const cleanup: string[] = [];
afterEach(async () => {
  await Promise.all(cleanup.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ralph-notifier-'));
  cleanup.push(dir);
  return dir;
}

const stuck: Happening = { event: 'stuck_warning', iteration: 2, stuckCount: 2, maxStuck: 3 };

describe('createNotifier', () => {
  it('sends to every target; a failure is one masked warning line and counted, the others still go', async () => {
    const root = await tempDir();
    const out = join(await tempDir(), 'heard');
    const warnings: string[] = [];
    const notifier = createNotifier({
      targets: [`cmd:sh -c 'cat >> ${out}'`, "cmd:sh -c 'exit 5' --token=abcdef", 'cmd:no-such-program-here'],
      chosen: undefined,
      root,
      env: process.env,
      warn: (line) => warnings.push(line),
    });
    await notifier.notify(stuck);
    expect(JSON.parse(await readFile(out, 'utf8'))).toMatchObject({ event: 'stuck_warning', stuckCount: 2 });
    expect(notifier.failed()).toBe(2);
    // Sent at once: the lines come in the order the targets answer.
    expect(warnings.toSorted()).toEqual([
      'ralph: warning: the stuck_warning notification to cmd:no-such-program-here failed: no executable no-such-program-here (on PATH or as a path)',
      "ralph: warning: the stuck_warning notification to cmd:sh -c 'exit 5' --token=*** failed: it exited with 5",
    ]);
  });

  it('refuses a command inside the repository: the agent can rewrite it', async () => {
    const root = await tempDir();
    await writeFile(join(root, 'notify.sh'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
    const warnings: string[] = [];
    const notifier = createNotifier({
      targets: ['cmd:./notify.sh'],
      chosen: undefined,
      root,
      env: process.env,
      warn: (l) => warnings.push(l),
    });
    await notifier.notify(stuck);
    expect(notifier.failed()).toBe(1);
    expect(warnings[0]).toContain('./notify.sh is inside the repository, where the agent can rewrite it');
  });

  it('sends nothing the --notify-on choice leaves out', async () => {
    const out = join(await tempDir(), 'heard');
    const notifier = createNotifier({
      targets: [`cmd:sh -c 'cat >> ${out}'`],
      chosen: ['blocked'],
      root: await tempDir(),
      env: process.env,
      warn: () => undefined,
    });
    await notifier.notify(stuck);
    await expect(readFile(out, 'utf8')).rejects.toThrow();
  });

  it('bounds a command that hangs, and `settled` waits for one sent aside', async () => {
    const warnings: string[] = [];
    const notifier = createNotifier({
      targets: ['cmd:sleep 30'],
      chosen: undefined,
      root: await tempDir(),
      env: process.env,
      warn: (line) => warnings.push(line),
      timeoutMs: 200,
    });
    notifier.notifyLater(stuck);
    expect(notifier.failed()).toBe(0);
    await notifier.settled();
    expect(notifier.failed()).toBe(1);
    expect(warnings[0]).toContain('failed: it did not finish in time and was ended');
  });

  it('says once that this machine has no desktop, and counts no failure', async () => {
    const warnings: string[] = [];
    const notifier = createNotifier({
      targets: ['desktop'],
      chosen: undefined,
      root: await tempDir(),
      env: { PATH: process.env.PATH },
      warn: (line) => warnings.push(line),
      platform: 'linux',
    });
    await notifier.notify(stuck);
    await notifier.notify(stuck);
    expect(warnings).toEqual(['ralph: desktop notifications skipped: no display (DISPLAY and WAYLAND_DISPLAY unset)']);
    expect(notifier.failed()).toBe(0);
  });
});

describe('withNotices', () => {
  function recorder(): Notifier & { heard: Happening[] } {
    const heard: Happening[] = [];
    return {
      heard,
      notify: async (happening) => void heard.push(happening),
      notifyLater: (happening) => void heard.push(happening),
      settled: async () => undefined,
      failed: () => 0,
    };
  }
  const quiet: LoopReporter = {
    iterationStarted: () => undefined,
    iterationFinished: () => undefined,
    completeRejected: () => undefined,
    usageLimitWait: () => () => undefined,
    warning: () => undefined,
  };
  const finished = (iteration: number, stuckCount: number) =>
    ({ row: { iteration, stuckCount }, committed: false }) as unknown as Parameters<
      LoopReporter['iterationFinished']
    >[0];

  it('warns once per climb, at one strike before --max-stuck', () => {
    const notifier = recorder();
    const reporter = withNotices(quiet, notifier, 3);
    for (const [iteration, count] of [
      [1, 1],
      [2, 2],
      [3, 2],
      [4, 0],
      [5, 1],
      [6, 2],
    ] as const)
      void reporter.iterationFinished(finished(iteration, count));
    expect(notifier.heard).toEqual([
      { event: 'stuck_warning', iteration: 2, stuckCount: 2, maxStuck: 3 },
      { event: 'stuck_warning', iteration: 6, stuckCount: 2, maxStuck: 3 },
    ]);
  });

  it('notifies a usage-limit wait with its reset, not a busy server’s', () => {
    const notifier = recorder();
    const reporter = withNotices(quiet, notifier, 3);
    reporter.usageLimitWait({ until: 2000, resetsAt: 1000, message: 'm', why: 'usage_limit' });
    reporter.usageLimitWait({ until: 3000, message: 'm', why: 'overloaded' });
    expect(notifier.heard).toEqual([
      { event: 'usage_limit_wait', resetsAt: new Date(1000).toISOString(), why: 'usage_limit' },
    ]);
  });
  it('notifies a network outage once, at its first pause; a working iteration ends the outage', () => {
    const notifier = recorder();
    const reporter = withNotices(quiet, notifier, 3);
    const failure = { kind: 'setup', cause: 'network', message: 'Unable to connect to API', hint: 'h' } as const;
    const offline = (iteration: number) => ({ ...finished(iteration, 0), failure });
    const wait = (until: number) =>
      reporter.usageLimitWait({ until, message: 'Unable to connect to API', why: 'network' });
    void reporter.iterationFinished(offline(2));
    wait(15_000);
    void reporter.iterationFinished(offline(3));
    wait(45_000);
    void reporter.iterationFinished(finished(4, 0));
    void reporter.iterationFinished(offline(5));
    wait(60_000);
    const retryAt = (ms: number) => new Date(ms).toISOString();
    expect(notifier.heard).toEqual([
      { event: 'network_wait', retryAt: retryAt(15_000), message: 'Unable to connect to API' },
      { event: 'network_wait', retryAt: retryAt(60_000), message: 'Unable to connect to API' },
    ]);
  });
});

describe('an ending', () => {
  it('is notified exactly once, after the mid-run ones, and last-run.json counts the failures', async () => {
    const root = await tempDir();
    const paths = withRecords(ralphPaths(root), join(root, '.git/ralph'));
    await mkdir(paths.logs, { recursive: true });
    await mkdir(join(root, '.git'));
    const heard = join(await tempDir(), 'heard');
    const stderr = new PassThrough();
    let errors = '';
    stderr.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const notifications = notificationsFor(
      { notify: [`cmd:sh -c 'cat >> ${heard}'`, "cmd:sh -c 'exit 1'"], notifyOn: undefined, report: false },
      { root, env: process.env, warn: (line) => void (errors += `${line}\n`) },
    )!;
    notifications.notifier.notifyLater(stuck);
    const code = await finishRun(
      { ending: { reason: 'blocked', message: 'no key' }, progress: noProgress(), rows: [] },
      {
        paths,
        out: new Screen(new PassThrough(), { tty: false, timestamps: false, github: false, stderr }),
        env: {},
        github: false,
        startedAt: Date.now(),
        startedMonotonicMs: monotonicMs(),
        firstIteration: 1,
        maxIterations: 5,
        strayProcessesEnded: 0,
        outlets: [notifications.outlet],
        notifier: notifications.notifier,
      },
    );
    expect(code).toBe(2);
    const events = (await readFile(heard, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { event: string }).event);
    expect(events).toEqual(['stuck_warning', 'blocked']);
    expect(JSON.parse(await readFile(paths.lastRun, 'utf8'))).toMatchObject({
      reason: 'blocked',
      notificationsFailed: 2,
    });
    expect(errors.match(/failed: it exited with 1/g)).toHaveLength(2);
  });
});
