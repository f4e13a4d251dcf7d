import { basename, relative } from 'node:path';
import { isCi } from '../process/ci-environment.js';
import type { Notification, NotifyEvent } from '../config/notify-events.js';
import type { RunReport } from '../loop/run-report.js';
import { waitsForHuman } from '../loop/termination.js';
import { oneLine } from '../text/neutralise.js';
import { counted } from '../domain/plural.js';

/** What happened, as the run knows it: an ending, or one of the moments mid-run worth a word. */
export type Happening =
  | { event: 'ending'; report: RunReport; reportPath?: string }
  | { event: 'usage_limit_wait'; resetsAt: string; why: 'usage_limit' | 'max_usage' }
  | { event: 'network_wait'; retryAt: string; message: string }
  | { event: 'stuck_warning'; iteration: number; stuckCount: number; maxStuck: number };

/** The exact command that answers a BLOCKED or a DECIDE (docs/notifications.md). */
export const ANSWER_COMMAND = 'ralph answer "<your answer>"';

/** Where a loop runs, as its notifications name it to someone who is not there. */
export interface LoopPlace {
  /** The repository's folder name; a worktree loop's adds its list. */
  project: string;
  /** The exact command that answers a BLOCKED or a DECIDE of this loop, typed at the repository's top. */
  answer: string;
}

/** A loop in the repository's own checkout. */
export function checkoutPlace(root: string): LoopPlace {
  return { project: basename(root), answer: ANSWER_COMMAND };
}

/**
 * A loop in its list's worktree (--worktree, a parallel run's): named by the repository and the
 * list, answered from the repository's top with the list (`ralph answer --tasks`), where a human is.
 */
export function worktreePlace(root: string, list: { file: string; name?: string }): LoopPlace {
  const file = relative(root, list.file);
  return {
    project: `${basename(root)} (${list.name ?? file})`,
    answer: `ralph answer --tasks ${file} "<your answer>"`,
  };
}

/**
 * Agent text in a notification, which puts it within one of its lines (`reason: …`): one line the
 * one way (a line break in a reason would add a line of its own, a forged `answer:`), no control
 * character (a NUL would even fail a command's spawn), and bounded.
 */
const MAX_DETAIL = 1000;

export function plainText(text: string): string {
  const clean = oneLine(text);
  return clean.length > MAX_DETAIL ? `${clean.slice(0, MAX_DETAIL)}…` : clean;
}

/** The event an ending is: a BLOCKED or a DECIDE by its own name, every other ending `ended`. */
export function endingEvent(reason: RunReport['reason']): NotifyEvent {
  return waitsForHuman(reason) ? reason : 'ended';
}

/**
 * Whether a notification goes out. `--notify-on` names the events; `ended` takes in every ending,
 * a BLOCKED and a DECIDE too. By default everything notifies, except a COMPLETE outside CI: there
 * someone is watching the terminal.
 */
export function wanted(
  happening: Happening,
  chosen: readonly NotifyEvent[] | undefined,
  env: NodeJS.ProcessEnv,
): boolean {
  if (happening.event !== 'ending') return chosen === undefined || chosen.includes(happening.event);
  const event = endingEvent(happening.report.reason);
  if (chosen === undefined) return happening.report.reason !== 'complete' || isCi(env);
  return chosen.includes(event) || chosen.includes('ended');
}

/** The link to this run on GitHub Actions, when ralph runs there. */
export function runUrl(env: NodeJS.ProcessEnv): string | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repository, GITHUB_RUN_ID: id } = env;
  if (!isCi(env) || !server || !repository || !id) return undefined;
  return `${server}/${repository}/actions/runs/${id}`;
}

/** Builds the one notification for a happening in a loop. */
export function notificationOf(happening: Happening, place: LoopPlace, env: NodeJS.ProcessEnv): Notification {
  const link = runUrl(env);
  const common = { project: plainText(place.project), ...(link ? { runUrl: link } : {}) };
  const built =
    happening.event === 'ending'
      ? endingNotice(happening, { ...place, project: common.project })
      : midRunNotice(happening, common.project);
  return {
    ...built,
    lines: [...built.lines, ...(link ? [`run: ${link}`] : [])],
    fields: { event: built.event, ...common, ...built.fields },
  };
}

type Notice = Pick<Notification, 'event' | 'title' | 'lines' | 'fields'>;

function endingNotice(
  { report, reportPath }: Extract<Happening, { event: 'ending' }>,
  { project, answer }: LoopPlace,
): Notice {
  const event = endingEvent(report.reason);
  const detail = report.detail === undefined ? undefined : plainText(report.detail);
  const answers = waitsForHuman(event);
  const cost = report.costUsd > 0 ? `, $${report.costUsd.toFixed(2)}` : '';
  const facts = `${report.stories.complete}/${report.stories.total} stories, ${counted(report.iterations, 'iteration')}${cost}`;
  const headline =
    event === 'blocked'
      ? `ralph in ${project} is blocked (exit ${report.exitCode})`
      : event === 'decide'
        ? `ralph in ${project} asks a question (exit ${report.exitCode})`
        : `ralph in ${project} ended: ${report.reason} (exit ${report.exitCode})`;
  return {
    event,
    title: headline,
    lines: [
      `${headline} — ${facts}`,
      ...(detail ? [`${event === 'decide' ? 'question' : 'reason'}: ${detail}`] : []),
      ...(answers ? [`answer: ${answer}`] : []),
      ...(reportPath ? [`report: ${reportPath}`] : []),
    ],
    fields: {
      reason: report.reason,
      exitCode: report.exitCode,
      ...(detail === undefined ? {} : { detail }),
      storiesComplete: report.stories.complete,
      storiesTotal: report.stories.total,
      iterations: report.iterations,
      costUsd: report.costUsd,
      ...(reportPath ? { report: reportPath } : {}),
      ...(answers ? { answer } : {}),
    },
  };
}

function midRunNotice(happening: Exclude<Happening, { event: 'ending' }>, project: string): Notice {
  if (happening.event === 'usage_limit_wait') {
    const what = happening.why === 'max_usage' ? 'its --max-usage share' : 'a usage limit';
    const title = `ralph in ${project} waits for ${what} to reset`;
    return {
      event: happening.event,
      title,
      lines: [`${title}, at ${happening.resetsAt}`],
      fields: { resetsAt: happening.resetsAt, why: happening.why },
    };
  }
  if (happening.event === 'network_wait') {
    const title = `ralph in ${project} waits for the network`;
    const said = plainText(happening.message);
    return {
      event: happening.event,
      title,
      lines: [`${title}: the agent could not reach its API (${said}); trying again at ${happening.retryAt}`],
      fields: { retryAt: happening.retryAt, message: said },
    };
  }
  const { iteration, stuckCount, maxStuck } = happening;
  const title = `ralph in ${project} is nearly stuck`;
  return {
    event: happening.event,
    title,
    lines: [
      `${title}: ${counted(stuckCount, 'iteration')} without a commit (iteration ${iteration}); one more stops the run`,
    ],
    fields: { iteration, stuckCount, maxStuck },
  };
}
