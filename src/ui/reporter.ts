import pc from 'picocolors';
import type { UsageWindow } from '../domain/usage.js';
import type { LoopReporter } from '../loop/ports.js';
import type { Outcome, Wait } from '../loop/port-data.js';
import { BUSY_LABEL, EVIDENCE } from '../loop/usage-limit-ending.js';
import { formatDuration } from './format.js';
import { LiveStatus } from './live-status.js';
import type { Console } from './screen.js';

export type { Console } from './screen.js';

const OUTCOME_LABEL: Record<Outcome, string> = {
  ok: '',
  agent_error: 'agent failed',
  agent_auth: 'agent not logged in',
  agent_setup: 'agent cannot run here',
  usage_limit: 'usage limit',
  truncated: 'output cut off',
  timeout: 'iteration timeout',
  idle_timeout: 'idle timeout',
  max_runtime: 'max runtime reached',
  repetition: 'stopped: repeating a tool call',
  interrupted: 'interrupted',
  history_rewritten: 'history rewritten',
};

export interface ReporterOptions {
  maxStuck: number;
  /** When the run started by the `elapsed` clock, for the elapsed time in each header. */
  runStartedAt: number;
  /** GitHub Actions: fold each iteration's agent output into a group. */
  github: boolean;
  /** The wall clock: when a usage limit resets is a time of day. */
  now?: () => number;
  /**
   * The clock of elapsed times (each header's, the status line's): the monotonic one in a run, so
   * a wall clock set back or forward mid-run shows no negative or hours-long time. Default `now`.
   */
  elapsed?: () => number;
}

/** The terminal side of the loop: its events as lines, plus the live status while an agent works. */
export interface TerminalReporter extends LoopReporter {
  /** The agent made a tool call (stream-json), for the live status line. */
  toolCall(): void;
  /** The agent reported its usage windows (stream-json), for the live status line. */
  usage(windows: UsageWindow[]): void;
  /**
   * The run ends with an iteration unfinished (a fault between its start and its end): stops the
   * status line and closes its group, so the summary and the annotation are not folded into it.
   */
  abandon(): void;
}

/** How each kind of pause introduces itself, and what its countdown waits for. */
const WAIT_WORDS: Record<Wait['why'], { head: string; countdown: string }> = {
  usage_limit: { head: 'usage limit', countdown: 'waiting for the usage limit to reset' },
  max_usage: { head: '--max-usage reached', countdown: 'waiting for the usage window to reset' },
  rate_limited: { head: 'rate limited (the server, not your usage limit)', countdown: 'rate limited: retrying' },
  overloaded: { head: 'overloaded (the API, not your usage limit)', countdown: 'API overloaded: retrying' },
  network: { head: 'network down (the API answered before)', countdown: 'waiting for the network' },
};

/** Renders the loop's events as terminal lines. */
export function createReporter(out: Console, options: ReporterOptions): TerminalReporter {
  const now = options.now ?? Date.now;
  const elapsed = options.elapsed ?? now;
  const live = new LiveStatus(out, elapsed);
  let grouped = false;
  /** Ends what an iteration opened: the status line, and on Actions its group. */
  const close = (costUsd: number) => {
    live.end(costUsd);
    if (grouped) out.command('::endgroup::');
    grouped = false;
  };
  return {
    iterationStarted(event) {
      out.line(pc.bold(pc.cyan(`── ${iterationHeader(event, elapsed() - options.runStartedAt)} ──`)));
      // The screen keeps the runner's commands stopped around the agent's output.
      if (options.github) out.command(`::group::Iteration ${event.iteration} (${event.mode})`);
      grouped = options.github;
      live.start(event.iteration, event.mode);
    },
    toolCall: () => live.toolCall(),
    usage: (windows) => live.usage(windows),
    abandon: () => close(0),
    iterationFinished({ row, committed, failure }) {
      close(row.stats.costUsd ?? 0);
      const paint = row.outcome === 'ok' ? (committed ? pc.green : pc.yellow) : pc.red;
      out.line(paint(iterationResult(row, committed, failure, options.maxStuck)));
      if (failure?.kind === 'error') for (const line of failure.lines.slice(-3)) out.line(pc.dim(`  │ ${line}`));
    },
    completeRejected({ remaining }) {
      out.line(pc.yellow(`COMPLETE rejected: ${rejectionReasons(remaining)}`));
    },
    usageLimitWait: (wait) => showWait(out, now, wait),
    warning(message) {
      out.line(pc.yellow(`warning: ${message}`));
    },
  };
}

type Started = Parameters<LoopReporter['iterationStarted']>[0];
type Finished = Parameters<LoopReporter['iterationFinished']>[0];

/** "Iteration 3 (3/10) · implement · S2 Title · stories 1/4 · 2m elapsed". */
function iterationHeader(
  { iteration, index, maxIterations, mode, stories, story }: Started,
  elapsedMs: number,
): string {
  return [
    `Iteration ${iteration} (${index + 1}/${maxIterations})`,
    mode,
    ...(story ? [`${story.id} ${story.title}`.trim()] : []),
    `stories ${stories.complete}/${stories.total}`,
    `${formatDuration(elapsedMs)} elapsed`,
  ].join(' · ');
}

/** "✓ iteration 3: commit abc1234 · 1m 2s · stories 2/4 · $0.12", or why nothing was committed. */
function iterationResult(
  row: Finished['row'],
  committed: boolean,
  failure: Finished['failure'],
  maxStuck: number,
): string {
  const facts = [
    formatDuration(row.durationSeconds * 1000),
    `stories ${row.storiesComplete}/${row.storiesTotal}`,
    ...(row.stats.costUsd === undefined ? [] : [`$${row.stats.costUsd.toFixed(2)}`]),
    ...(row.agentExitCode !== 0 && row.agentExitCode !== null ? [`agent exit ${row.agentExitCode}`] : []),
    ...(failure?.kind === 'error' && failure.busy
      ? [BUSY_LABEL[failure.busy.kind]]
      : OUTCOME_LABEL[row.outcome]
        ? [OUTCOME_LABEL[row.outcome]]
        : []),
  ].join(' · ');
  // A usage limit or a human's interrupt is no strike: no stuck count beside it.
  const strike =
    row.outcome === 'usage_limit' || row.outcome === 'interrupted' ? '' : ` (stuck ${row.stuckCount}/${maxStuck})`;
  const head = committed
    ? `✓ iteration ${row.iteration}: commit ${row.commitHash.slice(0, 7)}`
    : `✗ iteration ${row.iteration}: no new commit${strike}`;
  return `${head} · ${facts}`;
}

/** Why a COMPLETE claim was rejected: the stories still failing, unreviewed or unconfirmed. */
function rejectionReasons(remaining: Parameters<LoopReporter['completeRejected']>[0]['remaining']): string {
  const ids = (why: string) => remaining.filter((story) => story.why === why).map((story) => story.id);
  const [failing, unreviewed, unconfirmed] = [ids('failing'), ids('unreviewed'), ids('unconfirmed')];
  const why = [
    ...(failing.length ? [`stories still failing: ${failing.join(', ')}`] : []),
    ...(unreviewed.length ? [`not approved by review yet: ${unreviewed.join(', ')}`] : []),
    ...(unconfirmed.length ? [`approved outside a review iteration: ${unconfirmed.join(', ')}`] : []),
  ];
  return why.join('; ') || 'tasks.json is not valid, or a rule of the task list was broken';
}

/** Announces a pause and counts it down on the status line; the returned function ends the countdown. */
function showWait(out: Console, now: () => number, { message, until, why, resetSource }: Wait): () => void {
  const left = () => formatDuration(until - now());
  const words = WAIT_WORDS[why];
  const evidence = resetSource ? `, reset read from ${EVIDENCE[resetSource]}` : '';
  out.line(
    pc.yellow(`${words.head}: ${message} — waiting until ${new Date(until).toISOString()} (${left()}${evidence})`),
  );
  const timer = setInterval(() => out.status(`${words.countdown}: ${left()} left`), 1000);
  timer.unref();
  return () => {
    clearInterval(timer);
    out.status(undefined);
  };
}
