import pc from 'picocolors';
import { formatUsage } from '../domain/usage.js';
import { formatDuration, reasonLabel } from '../ui/format.js';
import { neutralise, oneLine } from '../text/neutralise.js';
import { forecastLines } from './forecast-text.js';
import type { IterationStatus, LastRunStatus, LoopStatus, StatusReport, TasksStatus } from './read-status.js';

const BAR_WIDTH = 20;

/** The status as text for people: one line per fact, then the last iterations as a table. */
export function renderStatus(status: StatusReport, now = Date.now()): string {
  const rows: [string, string][] = [
    ['Stories', storiesLine(status.tasks)],
    ...(status.tasks.state === 'ok' ? ([['Next', nextLine(status.tasks)]] as [string, string][]) : []),
    ['Branch', branchLine(status.branch, status.tasks.state === 'ok')],
    ['Loop', loopLine(status.loop)],
  ];
  if (status.blocked)
    rows.push([
      'Blocked',
      `${pc.red(oneLine(status.blocked.reason) || '(no reason given)')} — resolve it, then ralph answer "<what you did>"`,
    ]);
  if (status.decide) {
    const what = status.decide.answered
      ? 'answered; the next run acts on it'
      : 'waiting for your answer: ralph answer "<your answer>"';
    rows.push(['Decision', `${pc.yellow(oneLine(status.decide.question) || '(no question given)')} — ${what}`]);
  }
  if (status.killed) {
    const { iteration, startedAt } = status.killed;
    const where = iteration === 0 ? 'before its first iteration' : `in iteration ${iteration}`;
    rows.push([
      'Last run',
      `${pc.red('killed')} ${where} · started ${startedAt} — it recorded no ending (SIGKILL, a crash); the next run ends what it left`,
    ]);
  }
  rows.push([status.killed ? 'Before' : 'Last run', lastRunLine(status.lastRun)]);
  const lines = [
    `${pc.bold('ralph status')} · ${status.root}`,
    ...rows.map(([key, value]) => `${key.padEnd(10)}${value}`),
    '',
  ];
  if (status.forecast) lines.push(...forecastLines(status.forecast, now), '');
  lines.push(...iterationTable(status.recentIterations));
  // Reasons, questions and titles are the agent's words: colour is ralph's, every other control shown.
  return neutralise(lines.join('\n') + '\n', { color: pc.isColorSupported });
}

/** `[██████░░░░░░░░░░░░░░] 3/10`: how much of the task list passes. */
export function progressBar(complete: number, total: number, width = BAR_WIDTH): string {
  const filled = total === 0 ? 0 : Math.round((complete / total) * width);
  return `[${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${complete}/${total}`;
}

function storiesLine(tasks: TasksStatus): string {
  switch (tasks.state) {
    case 'missing':
      return 'no ralph/tasks.json yet — run `ralph init`';
    case 'invalid':
      return pc.red(`ralph/tasks.json is not a valid task list: ${oneLine(tasks.error)}`);
    case 'ok':
      return `${progressBar(tasks.complete, tasks.total)} complete${tasks.project ? ` (${oneLine(tasks.project)})` : ''}`;
  }
}

function nextLine(tasks: Extract<TasksStatus, { state: 'ok' }>): string {
  if (!tasks.next)
    return pc.green(
      tasks.total === 0 ? 'no stories yet' : 'none: every story passes (ralph archive files the list away)',
    );
  return `${oneLine(`${tasks.next.id}  ${tasks.next.title}`)}${tasks.next.priority === null ? '' : pc.dim(` (priority ${tasks.next.priority})`)}`;
}

function branchLine(branch: StatusReport['branch'], tasksRead: boolean): string {
  const current = branch.current === null ? null : oneLine(branch.current);
  const tasks = branch.tasks === null ? null : oneLine(branch.tasks);
  const here = current ?? 'detached HEAD';
  if (!tasksRead) return `${here} (the task list cannot be read, nor its branchName)`;
  if (tasks === null) return `${here} (the task list names no branchName)`;
  if (tasks === current) return `${here} (the task list's branchName)`;
  return `${here} — the task list's branchName is ${pc.yellow(tasks)}: ralph run switches to it`;
}

function loopLine(loop: LoopStatus): string {
  if (!loop.running) return 'not running';
  const usage = loop.usage ? ` · usage ${formatUsage(loop.usage)}` : '';
  // The run's header says "Iteration 7 (2/10)": the same two numbers. Iteration 0: still starting.
  const place = loop.thisRun === undefined ? `at most ${loop.maxIterations}` : `${loop.thisRun}/${loop.maxIterations}`;
  const where = loop.iteration === 0 ? 'starting' : `iteration ${loop.iteration} (${place} this run)`;
  return `${pc.green('running')} · pid ${loop.pid} · ${where} · ${formatDuration(loop.elapsedSeconds * 1000)} elapsed${usage}`;
}

function lastRunLine(run: LastRunStatus | null): string {
  if (!run) return 'none yet';
  if (run.state === 'invalid') return pc.red(`ralph/logs/last-run.json is unreadable: ${run.error}`);
  const label = `${reasonLabel(run.reason)} (code ${run.exitCode})`;
  const parts = [
    run.exitCode === 0 ? pc.green(label) : pc.yellow(label),
    `${run.iterations} iteration${run.iterations === 1 ? '' : 's'}`,
  ];
  if (run.durationSeconds !== undefined) parts.push(formatDuration(run.durationSeconds * 1000));
  if (run.endedAt) parts.push(`ended ${run.endedAt}`);
  if (run.agents) parts.push(agentShares(run.agents));
  const detail = run.detail?.split('\n')[0];
  return parts.join(' · ') + (detail ? ` — ${detail}` : '');
}

/** `<kind> 1 iteration $0.01, <fallback kind> 1 iteration`: what each agent kind did, when more than one ran. */
function agentShares(agents: Record<string, { iterations: number; costUsd?: number | undefined }>): string {
  return Object.entries(agents)
    .map(([kind, { iterations, costUsd }]) => {
      const cost = costUsd === undefined ? '' : ` $${costUsd.toFixed(2)}`;
      return `${kind} ${iterations} iteration${iterations === 1 ? '' : 's'}${cost}`;
    })
    .join(', ');
}

/** The last summary.csv rows: iteration, mode, story, duration, short commit, outcome (`-` when absent). */
function iterationTable(rows: readonly IterationStatus[]): string[] {
  if (rows.length === 0) return ['Iterations: none yet'];
  const header = ['iter', 'mode', 'story', 'duration', 'commit', 'outcome'];
  const cells = rows.map((row) => [
    row.iteration === null ? '-' : String(row.iteration),
    row.mode ?? '-',
    oneLine(row.story ?? '-').slice(0, 24),
    row.durationSeconds === null ? '-' : formatDuration(row.durationSeconds * 1000),
    row.commit ? row.commit.slice(0, 7) : '-',
    row.outcome ?? '-',
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((cell) => cell[column]!.length)));
  const format = (cell: string[]) =>
    '  ' +
    cell
      .map((value, column) => (column === 0 ? value.padStart(widths[column]!) : value.padEnd(widths[column]!)))
      .join('  ')
      .trimEnd();
  return [
    `Last ${rows.length} iteration${rows.length === 1 ? '' : 's'} (ralph/logs/summary.csv):`,
    pc.dim(format(header)),
    ...cells.map(format),
  ];
}
