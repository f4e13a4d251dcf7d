import { resolve } from 'node:path';
import { shownPath } from '../files/paths.js';
import { pathExists } from '../files/missing-file.js';
import { requireNamedList } from '../lists/chosen-list.js';
import { findRepoRoot } from '../git/repository.js';
import { runPaths } from '../git/run-paths.js';
import { RalphError } from '../errors.js';
import { openWithPlatform } from '../report/open-report.js';
import { writeReport, type ReportFormat } from '../report/write-report.js';

export interface ReportOptions {
  cwd: string;
  out?: string;
  open?: boolean;
  tasks?: string;
  format?: string;
  env?: NodeJS.ProcessEnv;
  stdout?: NodeJS.WritableStream;
  now?: number;
}

function formatOf(format: string | undefined): ReportFormat {
  if (format === undefined || format === 'html' || format === 'md') return format ?? 'html';
  throw new RalphError('usage', `--format ${format} is not a report format`, 'use --format html or --format md');
}

/** `ralph report`: one self-contained file from what runs already wrote; the agent is never called. */
export async function reportCommand(options: ReportOptions): Promise<number> {
  const format = formatOf(options.format);
  const root = await findRepoRoot(options.cwd);
  const paths = await runPaths(root, { say: (line) => process.stderr.write(`${line}\n`) });
  // Nothing to report, and nothing of ralph's to write into.
  if (!(await pathExists(paths.dir)))
    throw new RalphError(
      'setup',
      `${shownPath(options.cwd, paths.dir)}/ not found: no run to report`,
      'run `ralph init`, then `ralph run`',
    );
  const out = options.out === undefined ? undefined : resolve(options.cwd, options.out);
  const tasks = options.tasks === undefined ? undefined : resolve(options.cwd, options.tasks);
  if (tasks !== undefined) requireNamedList(root, options.cwd, tasks);
  const written = await writeReport(paths, { out, tasks, format, now: options.now });
  (options.stdout ?? process.stdout).write(`ralph: report written to ${written}\n`);
  if (options.open) await openWithPlatform(written, options.env ?? process.env, options.stdout ?? process.stdout);
  return 0;
}
