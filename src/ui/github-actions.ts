import { randomUUID } from 'node:crypto';
import { open } from 'node:fs/promises';
import type { IterationRow } from '../loop/port-data.js';
import type { RunReport } from '../loop/run-report.js';
import { waitsForHuman } from '../loop/termination.js';
import { summaryFacts } from './run-summary.js';
import { formatDuration, reasonLabel } from './format.js';
import { neutralise, oneLine } from '../text/neutralise.js';

/** Escapes the data of a workflow command (`::error::data`), which must stay on one line. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/**
 * The annotation for an ending: `::error::` for every non-zero exit but the two that wait for a
 * human, which the generated workflow ends green: BLOCKED a `::warning::`, DECIDE a `::notice::`.
 */
export function annotationFor(reason: string, exitCode: number, detail?: string, hint?: string): string | undefined {
  if (exitCode === 0) return undefined;
  const how = hint && waitsForHuman(reason) ? ` — ${hint}` : '';
  const text = escapeData(
    neutralise(`ralph: ${reasonLabel(reason)} (exit ${exitCode})${detail ? `: ${detail}` : ''}${how}`),
  );
  if (reason === 'decide') return `::notice title=ralph needs a decision::${text}`;
  if (reason === 'blocked') return `::warning title=ralph is blocked::${text}`;
  return `::error title=ralph stopped::${text}`;
}

/**
 * How a human answers a BLOCKED or DECIDE in this workflow, in its author's words
 * (RALPH_ANSWER_HINT; `ralph init --ci github` writes "run this workflow again with the answer
 * input"): in CI the terminal's `ralph answer --run` is not their way. One line of at most 500
 * characters, else none.
 */
export function answerHint(env: NodeJS.ProcessEnv): string | undefined {
  const hint = env.RALPH_ANSWER_HINT?.trim();
  return hint && hint.length <= 500 && !/[\u0000-\u001f]/.test(hint) ? hint : undefined;
}

/** The summary's next step after a BLOCKED or DECIDE, by the workflow's answer hint. */
function nextStep(reason: string, hint: string | undefined): string | undefined {
  if (!hint) return undefined;
  if (reason === 'blocked') return `resolve it, then ${hint}, saying what you did`;
  if (reason === 'decide') return `${hint}, giving your answer`;
  return undefined;
}

/** The job summary: the summary block as a table, the iterations, and what a human must answer. */
export function stepSummary(report: RunReport, rows: readonly IterationRow[], hint?: string): string {
  const facts = summaryFacts(report, nextStep(report.reason, hint));
  const lines = [
    '## Ralph Loop Summary',
    '',
    '| | |',
    '| --- | --- |',
    ...facts.map(([key, value]) => `| ${key} | ${cell(value)} |`),
    '',
  ];
  const detail = report.detail ? detailBlock(report.detail) : undefined;
  if (report.reason === 'blocked' && detail) lines.push('### Blocked', '', detail, '');
  else if (report.reason === 'decide' && detail)
    lines.push('### Decision needed (answer in `ralph/decide.txt`)', '', detail, '');
  else if (detail) lines.push('### Reason', '', detail, '');
  if (rows.length > 0) {
    const left = rows.length - SUMMARY_ROWS;
    lines.push(
      '### Iterations',
      '',
      ...(left > 0 ? [`The last ${SUMMARY_ROWS}; the ${left} before them are in \`ralph/logs/summary.csv\`.`, ''] : []),
      '| # | mode | duration | commit | stories | outcome | cost |',
      '| --- | --- | --- | --- | --- | --- | --- |',
    );
    for (const row of rows.slice(-SUMMARY_ROWS)) {
      const cost = row.stats.costUsd === undefined ? '' : `$${row.stats.costUsd.toFixed(2)}`;
      lines.push(
        `| ${row.iteration} | ${row.mode} | ${formatDuration(row.durationSeconds * 1000)} | ${row.commitHash.slice(0, 7) || '—'} | ${row.storiesComplete}/${row.storiesTotal} | ${row.outcome} | ${cost} |`,
      );
    }
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The job summary stays far below the size the runner takes (it drops a larger one whole): a
 * reason of a few thousand characters (a blocked.txt pasted whole) and a few hundred iterations.
 */
const SUMMARY_DETAIL_CHARS = 4000;
const SUMMARY_ROWS = 300;

function detailBlock(detail: string): string {
  if (detail.length <= SUMMARY_DETAIL_CHARS) return literalBlock(detail);
  return `${literalBlock(`${detail.slice(0, SUMMARY_DETAIL_CHARS)}…`)}\n\n(cut here: \`ralph/logs/last-run.json\` holds it whole)`;
}

/**
 * Writes `reason`, `exit-code` and `detail` to the step's outputs and appends the job summary; the
 * outputs first, so the workflow can branch on the ending even when the summary cannot be written.
 * A failure names the variable whose file failed.
 */
export async function publishToGitHub(
  env: NodeJS.ProcessEnv,
  report: RunReport,
  rows: readonly IterationRow[],
): Promise<void> {
  const failures: string[] = [];
  await writeOutputs(env, report.reason, report.exitCode, report.detail).catch((failure: Error) =>
    failures.push(`GITHUB_OUTPUT (${failure.message})`),
  );
  if (env.GITHUB_STEP_SUMMARY)
    await appendOnOwnLine(env.GITHUB_STEP_SUMMARY, stepSummary(report, rows, answerHint(env))).catch((failure: Error) =>
      failures.push(`GITHUB_STEP_SUMMARY (${failure.message})`),
    );
  if (failures.length > 0) throw new Error(failures.join('; '));
}

/** The step's outputs, so the workflow can branch on the reason; also for a start ralph refused. */
export async function writeOutputs(
  env: NodeJS.ProcessEnv,
  reason: string,
  exitCode: number,
  detail?: string,
): Promise<void> {
  if (!env.GITHUB_OUTPUT) return;
  const entries = [
    outputEntry('reason', reason),
    outputEntry('exit-code', String(exitCode)),
    ...(detail ? [outputEntry('detail', detail)] : []),
  ];
  await appendOnOwnLine(env.GITHUB_OUTPUT, entries.join(''));
}

/**
 * Appends text that starts a line of its own: the agent can reach these files (through ralph's
 * environment in /proc) and leave a last line unended, which would run into ralph's first
 * (`x=1reason=…`), so a missing line end is added first.
 */
async function appendOnOwnLine(path: string, text: string): Promise<void> {
  const file = await open(path, 'a+');
  try {
    const { size } = await file.stat();
    const last = Buffer.alloc(1);
    if (size > 0) await file.read(last, 0, 1, size - 1);
    await file.appendFile(size > 0 && last[0] !== 0x0a ? `\n${text}` : text);
  } finally {
    await file.close();
  }
}

/**
 * One `$GITHUB_OUTPUT` entry by the runner's file-command rules: `name=value` when the value is
 * one line; otherwise `name<<DELIMITER`, the value, `DELIMITER` — the delimiter random and absent
 * from the value, so text the agent wrote can neither end the value early nor set another output.
 */
export function outputEntry(name: string, value: string): string {
  if (!/[\r\n]/.test(value)) return `${name}=${value}\n`;
  let delimiter = `ghadelimiter_${randomUUID()}`;
  while (value.includes(delimiter)) delimiter = `ghadelimiter_${randomUUID()}`;
  return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
}

function cell(text: string): string {
  return oneLine(text).replace(/\|/g, '\\|');
}

/**
 * Text the agent may have written (a blocked reason, a question, story titles in a detail), shown
 * as it is and never read as Markdown: a fenced code block whose fence is longer than any run of
 * backticks in it, so no HTML, link, image, heading or table can come out of it.
 */
export function literalBlock(text: string): string {
  const shown = neutralise(text);
  // Not Math.max(...runs): a text of some 130,000 runs of backticks would overflow the call stack.
  const longest = (shown.match(/`+/g) ?? []).reduce((most, run) => Math.max(most, run.length), 0);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}text\n${shown}\n${fence}`;
}
