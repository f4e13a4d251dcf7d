import type { ReportInputs } from './read-inputs.js';

/** The ending as the report's headline: what happened, and what the human does next. */
export interface Headline {
  title: string;
  reason: string | null;
  exitCode: number | null;
  /** The blocked reason, the decide question, or what stopped the run (the agent's words). */
  detail: string | null;
  next: string;
  endedAt: string | null;
}

const NEXT: Record<string, string> = {
  complete: 'Every story passes: review the branch and merge it.',
  blocked: 'Resolve what blocks the loop, then say what you did: ralph answer --run "<what you did>".',
  decide: 'Answer the question and go on: ralph answer --run "<your answer>".',
  max_iterations: 'Run again to give the loop more iterations (--max-iterations).',
  usage_limit: 'Run again once the usage limit has reset.',
  stuck: 'Read the last iterations’ logs: the loop made no progress.',
};

/**
 * The next step after a BLOCKED or DECIDE where `ralph answer --run` would refuse the last run's
 * --agent-bin (answer/replay-agent-bin.ts): answer, then run, as the run's summary says.
 */
const NEXT_WITHOUT_REPLAY: Record<string, string> = {
  blocked:
    'Resolve what blocks the loop, say what you did with ralph answer "<what you did>", then run again with your --agent-bin, which --run does not replay.',
  decide:
    'Answer the question with ralph answer "<your answer>", then run again with your --agent-bin, which --run does not replay.',
};

function stringField(record: Record<string, unknown> | null, key: string): string | null {
  const value = record?.[key];
  return typeof value === 'string' ? value : null;
}

/** `replays`: whether `ralph answer --run` would replay the last run's --agent-bin (default: it would). */
export function headlineOf(inputs: ReportInputs, iterations: number, { replays = true } = {}): Headline {
  const reason = stringField(inputs.lastRun, 'reason');
  const exit = inputs.lastRun?.exitCode;
  const detail = inputs.decide ?? inputs.blocked ?? stringField(inputs.lastRun, 'detail');
  if (iterations === 0 && reason === null)
    return {
      title: 'No iteration has run yet',
      reason: null,
      exitCode: null,
      detail: null,
      next: 'Start the loop with ralph run; this report fills in as iterations are recorded.',
      endedAt: null,
    };
  return {
    title: reason === null ? 'The run has not recorded an ending' : `The last run ended: ${reason}`,
    reason,
    exitCode: typeof exit === 'number' ? exit : null,
    detail,
    next:
      (reason && ((replays ? undefined : NEXT_WITHOUT_REPLAY[reason]) ?? NEXT[reason])) ??
      'Read the iteration logs below, then run again.',
    endedAt: stringField(inputs.lastRun, 'endedAt'),
  };
}
