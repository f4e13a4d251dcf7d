import { buildBlockingEvent, writeBlockingEvent } from './blocking-event.js';
import { cascadeSkipReason } from './cascade.js';
import { formatDurationSpec } from '../domain/duration.js';
import { extractDetailsFromFile } from './extract-details.js';
import { gateFiles } from './gate-files.js';
import { ownFolder } from '../files/own-file.js';
import type { Containment } from '../process/containment.js';
import { runGateProcess, type GateProcessResult } from './run-gate.js';
import {
  MAX_DETAILS,
  type GateEnvironment,
  type GateOutcome,
  type GatePlace,
  type GateReport,
  type GateSpec,
} from './types.js';

export interface RunGatesOptions {
  /** The repository root: where the commands run, and what log paths in the event are relative to. */
  cwd: string;
  logsDir: string;
  /** Numbers the files: `gates-007-tests.log`, `gates-007.json`. */
  iteration: number;
  env: GateEnvironment;
  /** What is being checked, e.g. `COMPLETE claimed in iteration 7` or `start-of-run check`. */
  request: string;
  onGateStart?: (name: string) => void;
  /** Called for every gate, skipped ones included. */
  onGateEnd?: (outcome: GateOutcome) => void;
  /**
   * ralph was interrupted, or --max-runtime is up: stop the running gate's process group and skip
   * the rest. A string reason says why (INTERRUPTED by default).
   */
  signal?: AbortSignal;
  /** ralph was interrupted again: kill the running gate's process group without the grace period. */
  force?: AbortSignal;
  /** Marks each gate's processes and ends those that leave its group, saying so through `warn`. */
  containment?: { run: Containment; warn: (message: string) => void };
  /** Where the commands run, when not on this machine (--sandbox). */
  place?: GatePlace;
}

/** Why gates were stopped when the signal gives no reason of its own. */
export const INTERRUPTED = 'ralph was interrupted';

/** Why the signal stopped the gates, in words for the gate's line and its details. */
function stopReason(signal: AbortSignal | undefined): string {
  return typeof signal?.reason === 'string' ? signal.reason : INTERRUPTED;
}

/**
 * Runs the gates in list order, skipping those whose `after` gate failed or was skipped, and
 * when one fails writes the blocking event to `gates-NNN.json` and returns it.
 */
export async function runGates(specs: readonly GateSpec[], options: RunGatesOptions): Promise<GateReport> {
  if (specs.length === 0) return { passed: true, outcomes: [] };
  // Never a linked ralph/ or ralph/logs: the logs stay inside the repository.
  await ownFolder(options.cwd, options.logsDir);
  const files = await gateFiles(
    options.logsDir,
    options.iteration,
    specs.map((spec) => spec.name),
  );
  const outcomes: GateOutcome[] = [];
  // A gate that times out in a place of its own has the place stopped (a failed stop is warned of):
  // the gates after it cannot run there.
  let placeStopped: string | undefined;
  for (const [index, spec] of specs.entries()) {
    const reason = options.signal?.aborted
      ? stopReason(options.signal)
      : (placeStopped ?? cascadeSkipReason(spec, outcomes));
    let outcome: GateOutcome;
    if (reason !== undefined) outcome = { name: spec.name, status: 'skipped', reason };
    else {
      options.onGateStart?.(spec.name);
      outcome = await runGate(spec, files.logPaths[index] as string, options);
      for (const line of (await options.place?.settle?.()) ?? []) options.containment?.warn(line);
      if (options.place?.stop && outcome.status === 'failed' && outcome.timedOut)
        placeStopped = `${spec.name} timed out in ${options.place.label}, which ralph then stops`;
    }
    outcomes.push(outcome);
    options.onGateEnd?.(outcome);
  }

  const interrupted = options.signal?.aborted === true;
  const failed = outcomes.some((outcome) => outcome.status === 'failed');
  if (interrupted) return { passed: false, outcomes, interrupted: true };
  if (!failed) return { passed: true, outcomes };
  const event = buildBlockingEvent({
    request: options.request,
    iteration: options.iteration,
    specs,
    outcomes,
    root: options.cwd,
  });
  await writeBlockingEvent(options.cwd, files.eventPath, event);
  return { passed: false, outcomes, event, eventPath: files.eventPath };
}

/** Runs one gate and reads its details back from the log when it failed. */
async function runGate(spec: GateSpec, logPath: string, options: RunGatesOptions): Promise<GateOutcome> {
  const result = await runGateProcess({
    command: spec.command,
    timeoutMs: spec.timeoutMs,
    cwd: options.cwd,
    env: options.env,
    logPath,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.force ? { force: options.force } : {}),
    ...(options.place ? { place: options.place } : {}),
    ...(options.containment
      ? { containment: { ...options.containment, scope: `gate-${options.iteration}-${spec.name}` } }
      : {}),
  });
  const { exitCode, durationMs, stoppedBy } = result;
  if (exitCode === 0 && stoppedBy === undefined)
    return { name: spec.name, status: 'passed', exitCode: 0, durationMs, logPath };
  const found = result.startError === undefined ? relativeTo(options.cwd, await extractDetailsFromFile(logPath)) : [];
  const cause = causeOf(result, spec.timeoutMs, stopReason(options.signal));
  const details = cause ? [cause, ...found].slice(0, MAX_DETAILS) : found.length > 0 ? found : [silentExit(exitCode)];
  return {
    name: spec.name,
    status: 'failed',
    exitCode,
    timedOut: stoppedBy === 'timeout',
    ...(stoppedBy === 'interrupt' ? { interrupted: true } : {}),
    durationMs,
    logPath,
    details,
  };
}

/** The detail that goes first when ralph, not the command, ended the gate. */
function causeOf(result: GateProcessResult, timeoutMs: number, stopped: string): string | undefined {
  if (result.startError !== undefined) return result.startError;
  if (result.stoppedBy === 'timeout') return `timed out after ${formatDurationSpec(timeoutMs)}`;
  if (result.stoppedBy === 'interrupt') return stopped;
  return undefined;
}

function silentExit(exitCode: number | null): string {
  return exitCode === null
    ? 'ended by a signal without printing anything'
    : `exited with code ${exitCode} without printing anything`;
}

/** Tools print absolute paths (eslint, node --test); inside the repository, relative ones read better. */
function relativeTo(root: string, details: string[]): string[] {
  const prefix = root.endsWith('/') ? root : `${root}/`;
  return details.map((detail) => detail.replaceAll(prefix, ''));
}
