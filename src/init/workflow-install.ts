import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ItemOutcome } from './apply-plan.js';
import { GITHUB_WORKFLOW } from './ci-providers.js';
import { installArgument } from './install-spec.js';

/** The workflow's line that installs ralph: any `npm install -g` but Claude Code's. */
const RALPH_INSTALL_LINE = /^([ \t]+npm install -g )(?!["']?@anthropic-ai\/claude-code)(\S.*)$/m;

/**
 * `--install <spec>` on a workflow that exists: the user named what CI installs, so its install
 * line changes — that line only, every other edit of theirs kept.
 */
export async function updateInstallStep(root: string, spec: string): Promise<ItemOutcome> {
  const path = join(root, GITHUB_WORKFLOW);
  const text = await readFile(path, 'utf8');
  const word = installArgument(spec);
  const match = RALPH_INSTALL_LINE.exec(text);
  if (!match)
    return {
      path: GITHUB_WORKFLOW,
      result: 'skipped',
      warning: `${GITHUB_WORKFLOW} has no \`npm install -g\` line for ralph: add \`npm install -g ${word}\` to its install step yourself`,
    };
  if (match[2] === word) return { path: GITHUB_WORKFLOW, result: 'unchanged' };
  await writeFile(
    path,
    text.replace(RALPH_INSTALL_LINE, (_line, head: string) => `${head}${word}`),
  );
  return { path: GITHUB_WORKFLOW, result: 'updated', added: [`install step: npm install -g ${word}`] };
}
