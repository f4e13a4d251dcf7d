import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import type { RunPaths } from '../files/record-paths.js';
import { RalphError } from '../errors.js';
import { readReportInputs, type ReportInputs } from './read-inputs.js';
import { readRunState, taskListId, withListBranch } from '../files/run-state.js';
import { doubtedApprovals } from '../files/doubted-approvals.js';
import { countStories, type ReviewPolicy } from '../domain/tasks.js';
import { forecastOfState } from '../status/read-forecast.js';
import { forecastLines } from '../status/forecast-text.js';
import { shapeReport } from './report-data.js';
import { headlineOf } from './headline.js';
import { recordedReplay } from '../files/last-run.js';
import { replaysAgentBin } from '../answer/replay-agent-bin.js';
import { renderHtml, type ReportView } from './render-html.js';
import { renderMarkdown } from './render-markdown.js';
import { statusReviewPolicy } from '../status/status-policy.js';

export type ReportFormat = 'html' | 'md';

/** Writes the report of the runs recorded under `paths` to `out`; resolves to the path written. */
export async function writeReport(
  paths: RunPaths,
  options: { out?: string; tasks?: string; format?: ReportFormat; now?: number; review?: ReviewPolicy },
): Promise<string> {
  const format = options.format ?? 'html';
  const out = options.out ?? join(paths.logs, format === 'md' ? 'report.md' : 'report.html');
  const inputs = await readReportInputs(paths, options.tasks);
  // A run passes its own policy (--skip-review is a flag too); the command reads it as status does.
  const review = options.review ?? (await statusReviewPolicy(paths, process.env));
  const data = shapeReport(inputs.csv, inputs.stories, review, inputs.gateRejections);
  const now = options.now ?? Date.now();
  const fromOut = relative(dirname(out), paths.logs);
  const view: ReportView = {
    project: inputs.project,
    generatedAt: new Date(now).toISOString().replace(/\.\d+Z$/, 'Z'),
    forecast: forecastLines(await reportForecast(paths, inputs, review, now), now),
    headline: headlineOf(inputs, data.iterations.length, {
      replays: await replaysAgentBin((await recordedReplay(paths.records))?.runArgs, paths.root),
    }),
    data,
    gateRejections: inputs.gateRejections,
    logsHref: fromOut === '' ? '' : `${fromOut.split(sep).join('/')}/`,
  };
  const text = format === 'md' ? renderMarkdown(view) : renderHtml(view);
  // Whole or not at all: a reader (a CI upload) never sees half a report.
  const temporary = `${out}.${process.pid}.tmp`;
  try {
    await mkdir(dirname(out), { recursive: true });
    await writeFile(temporary, text);
    await rename(temporary, out);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new RalphError('setup', `${out} could not be written: ${code}`, 'choose another --out');
  }
  return out;
}

/**
 * The forecast the report shows: the pace from ralph's records (state.json), never summary.csv; the
 * stories left from the task list as the report reads it.
 */
async function reportForecast(paths: RunPaths, inputs: ReportInputs, review: ReviewPolicy, now: number) {
  const list = withListBranch({ stories: inputs.stories, ...inputs.list }, paths.root, inputs.tasksPath);
  const id = taskListId(paths.root, inputs.tasksPath);
  const state = await readRunState(paths.records, id);
  const policy = {
    ...review,
    unconfirmed: await doubtedApprovals(paths.records, id, list, state.unconfirmedApprovals),
  };
  const { complete, total } = countStories(list, policy);
  return forecastOfState(state, total - complete, now);
}
