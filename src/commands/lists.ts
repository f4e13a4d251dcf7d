import pc from 'picocolors';
import { readReviewPolicy } from '../config/review-policy.js';
import { detectCi } from '../process/ci-environment.js';
import { RalphError } from '../errors.js';
import { endingOf, exitCodeFor } from '../loop/termination.js';
import { ralphPaths } from '../files/paths.js';
import { findRepoRoot } from '../git/repository.js';
import { readListOverviews, type ListOverview } from '../lists/list-overview.js';
import { neutralise, oneLine } from '../text/neutralise.js';
import { fencedFromRunner } from '../ui/runner-fence.js';

export interface ListsOptions {
  cwd: string;
  /** Print one JSON object instead of a table. */
  json?: boolean;
  stdout?: NodeJS.WritableStream;
  stderr?: NodeJS.WritableStream;
  env?: NodeJS.ProcessEnv;
}

/**
 * `ralph lists`: every task list, its branch, its progress, its loop and its last ending. Reads only.
 * A list whose file is broken is shown as such among the others, its reason on stderr, and the exit
 * is the set-up error's (64): `ralph run` would refuse it.
 */
export async function listsCommand(options: ListsOptions): Promise<number> {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const env = options.env ?? process.env;
  const root = await findRepoRoot(options.cwd);
  const policy = await readReviewPolicy(ralphPaths(root).config, 'ralph/config.json', env).catch(() => ({
    review: true,
  }));
  const lists = await readListOverviews(root, policy);
  const github = detectCi(env).github;
  const broken = lists.filter((list) => list.broken);
  if (options.json) {
    // Branch names and reasons may be an agent's words: no CI log reads a `##` command in them.
    stdout.write(`${JSON.stringify({ root, lists }, null, 2).replace(/##/g, '#\\u0023')}\n`);
  } else {
    const text = renderLists(lists);
    stdout.write(github ? fencedFromRunner(text) : text);
  }
  if (broken.length === 0) return 0;
  const reasons = broken.map((list) => `${oneLine(`ralph: ${list.problem}`)}\n`).join('');
  stderr.write(github ? fencedFromRunner(reasons.trimEnd()) : reasons);
  return BROKEN_LIST_EXIT_CODE;
}

/** A broken list is a set-up error, as `ralph run` would report it. */
const BROKEN_LIST_EXIT_CODE = exitCodeFor(endingOf(new RalphError('setup', 'a task list is broken')));

/** The lists as a table for people; every control character an agent may have put in a name is shown, never sent. */
export function renderLists(lists: readonly ListOverview[]): string {
  if (lists.length === 0)
    return 'No task list: write ralph/tasks.json (ralph init), or add lists as ralph/lists/<name>.json\n';
  const header = ['LIST', 'BRANCH', 'STORIES', 'FROM', 'LOOP', 'LAST ENDING'];
  // Each cell on its line: a branchName or a reason holding a line break must not start a line of its own.
  const rows = lists.map((list) =>
    [
      list.name ?? list.file,
      list.broken ? '?' : (list.branch ?? '(current branch)'),
      list.broken
        ? 'broken'
        : list.stories
          ? `${list.stories.complete}/${list.stories.total}`
          : `? (${list.problem ?? 'unreadable'})`,
      list.storiesFrom,
      list.running ? `running (pid ${list.running.pid}, iteration ${list.running.iteration})` : '-',
      list.lastEnding ? `${list.lastEnding.reason} (exit ${list.lastEnding.exitCode})` : '-',
    ].map(oneLine),
  );
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  const waits = lists.filter((list) => list.dependsOn.length > 0);
  const text = [
    pc.bold(line(header)),
    ...rows.map(line),
    ...waits.map((list) => oneLine(`${list.name ?? list.file} starts after ${list.dependsOn.join(', ')}`)),
  ].join('\n');
  return neutralise(`${text}\n`, { color: pc.isColorSupported });
}
