import { createOwnFile } from '../files/own-file.js';
import { shownPath } from '../files/paths.js';
import { suggestionsFor } from './suggestions.js';
import { MAX_DETAILS, type BlockingEvent, type GateOutcome, type GateSpec, type GateStatus } from './types.js';

export interface EventInput {
  request: string;
  iteration: number;
  specs: readonly GateSpec[];
  /** One per spec, in the same order. */
  outcomes: readonly GateOutcome[];
  /** The repository root: log paths are given relative to it. */
  root: string;
}

/** The blocking event for outcomes in which at least one gate failed. */
export function buildBlockingEvent({ request, iteration, specs, outcomes, root }: EventInput): BlockingEvent {
  const commandOf = (name: string) => specs.find((spec) => spec.name === name)?.command ?? '';
  const failed = outcomes.filter((outcome) => outcome.status === 'failed');
  const blockedBy = failed.map((outcome) => outcome.name);
  return {
    originalRequest: request,
    iteration,
    blockedBy,
    summary: `${blockedBy.join(', ')} failed`,
    details: shareDetails(failed),
    suggestions: suggestionsFor(
      failed.map((outcome) => ({
        name: outcome.name,
        command: commandOf(outcome.name),
        timedOut: outcome.timedOut,
        timeoutMs: specs.find((spec) => spec.name === outcome.name)?.timeoutMs ?? 0,
        logPath: shownPath(root, outcome.logPath),
      })),
    ),
    gates: outcomes.map((outcome) => gateStatus(outcome, commandOf(outcome.name), root)),
  };
}

/** Writes the event as JSON for tools; never over an existing file. */
export async function writeBlockingEvent(root: string, path: string, event: BlockingEvent): Promise<void> {
  const file = await createOwnFile(root, path);
  try {
    await file.writeFile(`${JSON.stringify(event, null, 2)}\n`);
  } finally {
    await file.close();
  }
}

/**
 * At most MAX_DETAILS details over all failed gates, shared out in turn so a gate with many
 * failures leaves room for the next; each marked with its gate when several failed.
 */
function shareDetails(failed: readonly Extract<GateOutcome, { status: 'failed' }>[]): string[] {
  const quotas = failed.map(() => 0);
  for (let left = MAX_DETAILS, progressed = true; left > 0 && progressed;) {
    progressed = false;
    failed.forEach((outcome, index) => {
      if (left > 0 && (quotas[index] ?? 0) < outcome.details.length) {
        quotas[index] = (quotas[index] ?? 0) + 1;
        left -= 1;
        progressed = true;
      }
    });
  }
  const several = failed.length > 1;
  return failed.flatMap((outcome, index) =>
    outcome.details.slice(0, quotas[index]).map((detail) => (several ? `[${outcome.name}] ${detail}` : detail)),
  );
}

function gateStatus(outcome: GateOutcome, command: string, root: string): GateStatus {
  switch (outcome.status) {
    case 'passed':
      return {
        name: outcome.name,
        command,
        status: 'passed',
        exitCode: 0,
        durationMs: outcome.durationMs,
        logPath: shownPath(root, outcome.logPath),
      };
    case 'failed':
      return {
        name: outcome.name,
        command,
        status: 'failed',
        exitCode: outcome.exitCode,
        timedOut: outcome.timedOut,
        durationMs: outcome.durationMs,
        logPath: shownPath(root, outcome.logPath),
      };
    case 'skipped':
      return { name: outcome.name, command, status: 'skipped', reason: outcome.reason };
  }
}
