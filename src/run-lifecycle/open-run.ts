import { rm } from 'node:fs/promises';
import { dirname, relative, sep } from 'node:path';
import { describeEnded } from '../process/marked-processes.js';
import { Containment } from '../process/containment.js';
import { monotonicMs } from '../process/monotonic-clock.js';
import { ActiveLock, currentOwner } from '../files/active-lock.js';
import type { RalphPaths } from '../files/paths.js';
import type { RunPaths } from '../files/record-paths.js';
import { recordCrashes } from './crash-record.js';
import { installInterrupts } from './interrupts.js';
import { openLoopChannel } from '../parallel/loop-channel.js';
import { StartSoFar, type RunChoices, type RunContext, type Terminal } from './run-context.js';
import { listenersFor } from './run-listeners.js';

/** The chosen task list in the lock, when it is not ralph/tasks.json: the Stop hook checks that file. */
function tasksField(paths: RalphPaths): { tasks?: string } {
  const tasks = relative(paths.root, paths.tasks).split(sep).join('/');
  return tasks === 'ralph/tasks.json' ? {} : { tasks };
}

/**
 * Takes the lock and listens for interrupts. Before the lock, a refusal writes nothing: it must
 * never overwrite the record of a live run.
 */
export async function openRun(options: RunChoices, terminal: Terminal, paths: RunPaths): Promise<RunContext> {
  const startedAt = Date.now();
  const startedMonotonicMs = monotonicMs();
  const containment = new Containment();
  const lock = new ActiveLock(paths.active, {
    ...currentOwner(containment.runId),
    startedAt: new Date(startedAt).toISOString(),
    iteration: 0,
    thisRun: 0,
    maxIterations: 0,
    stuckCount: 0,
    mode: 'implement',
    ...tasksField(paths),
  });
  const { warning } = await lock.acquire();
  // Under the lock: the cgroups earlier runs of this repository left are theirs to empty now.
  const leftovers = await containment.open(dirname(paths.active));
  const remains = leftovers.length > 0 ? describeEnded(leftovers, 'that an earlier run left in its cgroup') : undefined;
  const interrupts = installInterrupts((signal, count) =>
    terminal.out.line(
      count === 1
        ? `${signal}: stopping (again to kill the agent or gate at once)…`
        : `${signal}: killing the agent or gate now`,
    ),
  );
  // A loop of a parallel run: its supervisor going away stops it as SIGTERM would.
  const channel = openLoopChannel(terminal.env, () => process.kill(process.pid, 'SIGTERM'));
  const { out, env, github } = terminal;
  const run: RunContext = {
    ...(channel ? { channel } : {}),
    options,
    terminal,
    paths,
    lock,
    lockWarning: [warning, remains].filter(Boolean).join('; ') || undefined,
    containment,
    interrupts,
    rows: [],
    startedAt,
    startedMonotonicMs,
    // Until the settings resolve, a refusal is heard as one before them.
    start: new StartSoFar({
      firstIteration: 1,
      maxIterations: 0,
      listeners: listenersFor(undefined, { out, env, github, ...(channel ? { channel } : {}) }),
    }),
  };
  crashRecords.set(run, recordCrashes(run));
  return run;
}

/** Per open run, how to stop recording what no code path caught (see recordCrashes). */
const crashRecords = new WeakMap<RunContext, () => void>();

/** Closes the screen, stops listening for interrupts, and releases the lock — however the run ended. */
export async function closeRun(run: RunContext): Promise<void> {
  const { terminal, interrupts, paths, lock, containment } = run;
  crashRecords.get(run)?.();
  run.channel?.close();
  // Later steps of the job must find the runner obeying commands again.
  const closed = terminal.out.close();
  interrupts.dispose();
  await containment.close();
  await run.start.facts.box?.box?.close().catch(() => undefined);
  await rm(paths.records.tasksSnapshot, { force: true }).catch(() => undefined);
  await lock
    .release()
    .catch((error: Error) => terminal.out.error(`ralph: could not remove ${paths.active}: ${error.message}`));
  // Everything printed reaches the terminal before ralph exits, unless nothing reads it for a while.
  await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, FLUSH_LIMIT_MS).unref())]);
}

/** How long ralph waits at the end for a terminal that does not read what it printed. */
const FLUSH_LIMIT_MS = 10_000;
