import { readdir } from 'node:fs/promises';
import { isErrno, RalphError } from '../errors.js';
import { readFileWithin } from '../files/file-within.js';
import { readLastRun } from '../files/last-run.js';
import { readOwnFileNoLink } from '../files/own-file.js';
import type { RunPaths } from '../files/record-paths.js';
import { blockedReason, decideQuestion } from '../files/signal-files.js';
import { parseTasks } from '../files/tasks.js';
import type { Story } from '../domain/tasks.js';

/** What the report reads, as text: only files runs already wrote; the agent is never called. */
export interface ReportInputs {
  csv: string;
  lastRun: Record<string, unknown> | null;
  stories: Story[];
  project: string | null;
  /** The task list's identity fields (its state in the records is keyed by them), and its file. */
  list: { branchName?: string; project?: string };
  tasksPath: string;
  blocked: string | null;
  decide: string | null;
  /** The gates' blocking events in ralph/logs (`gates-007.json`): one per rejection, in order. */
  gateRejections: string[];
}

/**
 * Reads one of ralph's files (summary.csv, blocked.txt, decide.txt), undefined when it is not there.
 * The report is made outside the agent's box and lands in ralph/logs, which the next agent reads: a
 * link the agent planted there (blocked.txt to ~/.ssh/id_rsa) would carry the key into the report.
 * These files are only ever ralph's own, so a link, a FIFO or anything but a regular file is refused,
 * an io error (74) naming it.
 */
export function readReportFile(path: string): Promise<string | undefined> {
  return readOwnFileNoLink(path);
}

/** Reads every input; `tasksPath` replaces ralph/tasks.json (`--tasks FILE`). */
export async function readReportInputs(paths: RunPaths, tasksPath = paths.tasks): Promise<ReportInputs> {
  // The run state is read by its owner (files/run-state.ts) where the forecast needs it, not here.
  const [csv, blocked, decide] = await Promise.all([paths.summaryCsv, paths.blocked, paths.decide].map(readReportFile));
  // A task list may be the user's link, but what is opened must lie inside the repository (file-within.ts).
  const tasks = readFileWithin(paths.root, tasksPath);
  const lastRun = await readLastRun(paths.records);
  const parsed = tasks === undefined ? undefined : parseTasks(tasks);
  if (parsed && !parsed.ok)
    throw new RalphError('setup', `${tasksPath} is not a task list: ${parsed.error}`, 'fix it or pass --tasks FILE');
  return {
    csv: csv ?? '',
    lastRun: lastRun ?? null,
    stories: parsed?.tasks.stories ?? [],
    project: parsed?.tasks.project ?? parsed?.tasks.branchName ?? null,
    list: {
      ...(parsed?.tasks.branchName === undefined ? {} : { branchName: parsed.tasks.branchName }),
      ...(parsed?.tasks.project === undefined ? {} : { project: parsed.tasks.project }),
    },
    tasksPath,
    blocked: blocked === undefined ? null : blockedReason(blocked),
    decide: decide === undefined ? null : decideQuestion(decide),
    gateRejections: await gateEvents(paths.logs),
  };
}

async function gateEvents(logs: string): Promise<string[]> {
  const names = await readdir(logs).catch((error: unknown) => {
    if (isErrno(error, 'ENOENT') || isErrno(error, 'ENOTDIR')) return [];
    throw new RalphError('setup', `${logs} could not be listed for the report`, 'fix its permissions');
  });
  return names.filter((name) => /^gates-\d+(\.\d+)?\.json$/.test(name)).sort();
}
