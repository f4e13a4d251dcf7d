import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ItemOutcome } from './apply-plan.js';
import { GITHUB_WORKFLOW } from './ci-providers.js';
import { installArgument } from './install-spec.js';
import { GITHUB_MATRIX_WORKFLOW } from './matrix-workflow.js';
import { readOwnFile } from '../files/own-file.js';

/** Every workflow `ralph init --ci github` writes, at the paths it writes them. */
export const RALPH_WORKFLOWS: readonly string[] = [GITHUB_WORKFLOW, GITHUB_MATRIX_WORKFLOW];

/**
 * The workflow's lines that install ralph: any `npm install -g` (in a `run: |` block or a one-line
 * `run:`) but the agent client's, which is pinned by its input. The matrix workflow has three.
 */
const RALPH_INSTALL_LINES = /^([ \t]+(?:run: )?npm install -g )(?!"[^"\s]+@\$\{[A-Z0-9_]+_VERSION\}")(\S.*)$/gm;

/**
 * ralph's mark on a workflow it wrote: its header says `(written by \`ralph init --ci github…\`)`.
 * Only the leading comment is read, so a file of the user's that merely mentions ralph is not taken.
 */
export function writtenByRalph(text: string): boolean {
  const header = /^(?:#.*\n)*/.exec(text)?.[0] ?? '';
  return /\(written by `ralph init --ci github(?: --matrix)?`\)/.test(header);
}

/** The install lines' arguments, in order. */
export function installLines(text: string): string[] {
  return [...text.matchAll(RALPH_INSTALL_LINES)].map((match) => match[2] ?? '');
}

/** A workflow at one of ralph's paths, read; undefined when there is none. */
export async function readWorkflow(root: string, path: string): Promise<string | undefined> {
  // Without blocking: the agent may have left a FIFO there in an earlier run.
  return readOwnFile(join(root, path));
}

/**
 * Points a workflow's ralph install lines (all of them: the matrix workflow installs ralph in three
 * jobs) at `spec`, every other edit of the user's kept. With `onlyReplacing`, only the lines that
 * still install that argument change: a line the user pointed elsewhere is their choice.
 */
export async function updateInstallStep(
  root: string,
  path: string,
  spec: string,
  options: { onlyReplacing?: string } = {},
): Promise<ItemOutcome> {
  const text = (await readWorkflow(root, path)) ?? '';
  const word = installArgument(spec);
  const lines = installLines(text);
  if (lines.length === 0)
    return {
      path,
      result: 'skipped',
      warning: `${path} has no \`npm install -g\` line for ralph: add \`npm install -g ${word}\` to its install step yourself`,
    };
  const replace = (argument: string) =>
    argument !== word && (options.onlyReplacing === undefined || argument === options.onlyReplacing);
  if (!lines.some(replace)) return { path, result: 'unchanged' };
  const updated = text.replace(RALPH_INSTALL_LINES, (line, head: string, argument: string) =>
    replace(argument) ? `${head}${word}` : line,
  );
  await writeFile(join(root, path), updated);
  const count = lines.filter(replace).length;
  return {
    path,
    result: 'updated',
    added: [`install step${count === 1 ? '' : `s (${count})`}: npm install -g ${word}`],
  };
}
