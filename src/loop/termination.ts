import type { ServerBusy } from '../domain/usage.js';
import { formatDurationSpec } from '../domain/duration.js';
import type { RalphError } from '../errors.js';
import { BUSY_LABEL, times, usageLimitDetail, type UsageLimitEnding } from './usage-limit-ending.js';
import { counted } from '../domain/plural.js';

/**
 * Why a run ended — the loop's endings, refused starts and faults in ralph's own files alike. The
 * one record every report is derived from (src/loop/run-report.ts, recordOf): exit code, summary,
 * last-run.json, the CI outputs. A new way to end is a new member here; the compiler finds the rest.
 */
export type Ending =
  | Termination
  /** ralph cannot run as configured (a bad flag, config, task list, prompt, agent or work tree): no agent call. */
  | { reason: 'setup'; message: string }
  /** The task list was resumed `--max-resumes` times without completing a story: no agent call. */
  | { reason: 'max_resumes'; message: string }
  /** A read or write of ralph's own files failed after start-up; the message names the path and the OS error. */
  | { reason: 'io_error'; message: string }
  /** A bug in ralph (an error that is neither a RalphError nor an OS error): the run is still recorded. */
  | { reason: 'internal_error'; message: string };

/** How the loop itself can end a run (the subset of endings runLoop returns). */
export type Termination =
  /** Every story passes and the agent said COMPLETE (or there was nothing left to do). */
  | { reason: 'complete' }
  /** `--max-iterations` iterations ran without completion. */
  | { reason: 'max_iterations' }
  /** The agent said BLOCKED; the reason is in ralph/blocked.txt. */
  | { reason: 'blocked'; message: string }
  /** The agent asked a question; it is in ralph/decide.txt. */
  | { reason: 'decide'; question: string }
  /** `--max-stuck` consecutive iterations made no commit. */
  | { reason: 'stuck'; stuckCount: number }
  /** `--max-runtime` is used up. */
  | { reason: 'max_runtime'; limitMs: number }
  /** The agents' summed cost reached `--max-cost`. */
  | { reason: 'max_cost'; costUsd: number; limitUsd: number }
  /** `--max-agent-failures` consecutive iterations in which the agent failed. */
  | { reason: 'agent_failures'; count: number; lastError: string[]; busy?: ServerBusy['kind'] }
  /** The agent is not logged in (or its key is invalid): no iteration can succeed. */
  | { reason: 'agent_auth'; message: string; hint: string }
  /**
   * The agent refuses to run as configured (as root with --dangerously-skip-permissions), or cannot
   * reach the API (`network`).
   */
  | { reason: 'agent_setup'; message: string; cause?: 'network'; hint: string }
  /** A usage limit that ralph may not (or cannot, within --max-runtime) wait out, or one no wait lifts. */
  | ({ reason: 'usage_limit' } & UsageLimitEnding)
  /** `--max-validation-failures` consecutive iterations broke the loop's rules. */
  | { reason: 'validation_failures'; count: number; last: string }
  /** `--max-gate-failures` COMPLETE claims in a row were rejected by the quality gates. */
  | { reason: 'quality_gate_exhausted'; count: number; event: string }
  /** SIGINT or SIGTERM reached ralph. */
  | { reason: 'interrupted'; signal: InterruptSignal };

export type InterruptSignal = 'SIGINT' | 'SIGTERM' | 'SIGHUP';

/** 128 + the signal number, as shells report a process ended by it. */
const SIGNAL_EXIT_CODES: Record<InterruptSignal, number> = { SIGHUP: 129, SIGINT: 130, SIGTERM: 143 };

/** Every reason `last-run.json` can carry. */
export type Reason = Ending['reason'];

/** The two endings that wait for a human's answer: BLOCKED and DECIDE. */
export function waitsForHuman(reason: string): reason is 'blocked' | 'decide' {
  return reason === 'blocked' || reason === 'decide';
}

/** The ending a RalphError stands for: its kind decides the reason, and so the exit code. */
export function endingOf(error: RalphError): Ending {
  switch (error.kind) {
    case 'usage':
    case 'setup':
      return { reason: 'setup', message: error.message };
    case 'io':
      return { reason: 'io_error', message: error.message };
    case 'blocked':
      return { reason: 'blocked', message: error.message };
    case 'decide':
      return { reason: 'decide', question: error.message };
    case 'max_resumes':
      return { reason: 'max_resumes', message: error.message };
    default:
      return unreachable(error.kind);
  }
}

/** Why the supervisor of a parallel run stopped a loop itself; its ending is then this, not the signal it got. */
export type SupervisorStop = 'merge_conflict' | 'max_total_cost';

/**
 * The documented exit code of each ending (README, "Exit codes"), and of a loop the supervisor
 * stopped: the one place exit codes are chosen.
 */
export function exitCodeFor(termination: Ending | { reason: SupervisorStop }): number {
  switch (termination.reason) {
    case 'complete':
      return 0;
    case 'max_iterations':
    case 'max_runtime':
    case 'max_cost':
    case 'max_total_cost':
    case 'usage_limit':
      return 1;
    case 'blocked':
      return 2;
    case 'decide':
      return 3;
    case 'stuck':
    case 'agent_failures':
    case 'validation_failures':
    case 'quality_gate_exhausted':
    case 'max_resumes':
    case 'merge_conflict':
      return 4;
    case 'agent_auth':
    case 'agent_setup':
    case 'setup':
      return 64;
    case 'internal_error':
      return 70;
    case 'io_error':
      return 74;
    case 'interrupted':
      return SIGNAL_EXIT_CODES[termination.signal];
    default:
      return unreachable(termination);
  }
}

/** The human detail of an ending, for the summary block and last-run.json. */
export function detailOf(termination: Ending): string | undefined {
  switch (termination.reason) {
    case 'setup':
    case 'max_resumes':
    case 'io_error':
    case 'internal_error':
    case 'blocked':
      return termination.message;
    case 'decide':
      return termination.question;
    case 'stuck':
      return `${termination.stuckCount} consecutive iterations without a new commit`;
    case 'max_runtime':
      return `the run used its ${formatDurationSpec(termination.limitMs)} --max-runtime`;
    case 'max_cost':
      return `spent $${termination.costUsd.toFixed(2)} of the $${termination.limitUsd.toFixed(2)} --max-cost`;
    case 'agent_failures':
      return [
        `the agent failed ${times(termination.count)}${termination.count === 1 ? '' : ' in a row'}${termination.busy ? ` (${BUSY_LABEL[termination.busy]}: the server, not your usage limit)` : ''}; its last error output:`,
        ...termination.lastError,
      ].join('\n');
    case 'agent_auth':
    case 'agent_setup':
      // The hint is the agent's dialect's: each client is logged in and set up in its own way.
      return `${termination.message} — ${termination.hint}`;
    case 'usage_limit':
      return usageLimitDetail(termination);
    case 'validation_failures':
      return `${counted(termination.count, 'iteration')} in a row broke the loop's rules; the last: ${termination.last}`;
    case 'quality_gate_exhausted':
      return gatesExhausted(termination.count, termination.event.trimEnd());
    case 'interrupted':
      return `received ${termination.signal}`;
    case 'complete':
    case 'max_iterations':
      return undefined;
    default:
      return unreachable(termination);
  }
}

/** Makes an unhandled union member a compile error. */
export function unreachable(value: never): never {
  throw new Error(`unreachable: ${JSON.stringify(value)}`);
}

/**
 * The claims the gates rejected, the last one's reason on the first line (what an annotation and
 * `ralph status` show), then its whole blocking event.
 */
function gatesExhausted(count: number, event: string): string {
  const claims = count === 1 ? '1 COMPLETE claim was' : `${count} COMPLETE claims in a row were`;
  const why = (event.split('\n')[0] ?? '').replace(/^## Completion Blocked: /, '');
  return `${claims} rejected by the quality gates (last: ${why})\n${event}`;
}
