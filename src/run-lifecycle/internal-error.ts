import { join, relative } from 'node:path';
import { appendOwnFile } from '../files/own-file.js';
import { PACKAGE_VERSION, whereToReport } from '../package-info.js';

/** A bug's first line, for the ending's detail: `TypeError: x is not a function`. */
export function bugMessage(bug: unknown): string {
  const text = bug instanceof Error ? `${bug.name}: ${bug.message}` : String(bug);
  return text.split('\n')[0] ?? text;
}

/**
 * Writes a bug's stack trace to ralph/logs/internal-error.log and returns the one line the terminal
 * gets instead of the trace: what broke, that it is ralph's fault, where to report it, where the trace is.
 */
export async function reportBug(bug: unknown, paths: { root: string; logs: string }, at: Date): Promise<string> {
  const path = join(paths.logs, 'internal-error.log');
  const trace = bug instanceof Error ? (bug.stack ?? bugMessage(bug)) : String(bug);
  const saved = await appendOwnFile(
    paths.root,
    path,
    `${at.toISOString()} ralph ${PACKAGE_VERSION} node ${process.version}\n${trace}\n\n`,
  ).then(
    () => `its stack trace is in ${relative(paths.root, path)}`,
    (error: Error) => `its stack trace could not be written to ${path}: ${error.message}`,
  );
  return `ralph: internal error: ${bugMessage(bug)} — a bug in ralph, not in your project. Please report it ${whereToReport()}; ${saved}`;
}
