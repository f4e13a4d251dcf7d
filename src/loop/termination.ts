/** Why a run ended: one value per way a run can end; every report is derived from it. */
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
  /** SIGINT or SIGTERM reached ralph. */
  | { reason: 'interrupted'; signal: InterruptSignal };

export type InterruptSignal = 'SIGINT' | 'SIGTERM';

/** Every reason `last-run.json` can carry: the loop's endings plus ralph's own set-up errors. */
export type Reason = Termination['reason'] | 'setup';

/** The documented exit code of each ending (README, "Exit codes"). */
export function exitCodeFor(termination: Termination): number {
  switch (termination.reason) {
    case 'complete':
      return 0;
    case 'max_iterations':
      return 1;
    case 'blocked':
      return 2;
    case 'decide':
      return 3;
    case 'stuck':
      return 4;
    case 'interrupted':
      return termination.signal === 'SIGINT' ? 130 : 143;
    default:
      return unreachable(termination);
  }
}

/** The human detail of an ending, for the summary block and last-run.json. */
export function detailOf(termination: Termination): string | undefined {
  switch (termination.reason) {
    case 'blocked':
      return termination.message;
    case 'decide':
      return termination.question;
    case 'stuck':
      return `${termination.stuckCount} consecutive iterations without a new commit`;
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
