import { mergeGitignore } from '../files/gitignore.js';
import { LOOP_OWNED_PATHS } from '../files/paths.js';
import { readTemplate } from '../templates.js';
import type { CiProvider } from './ci-providers.js';


/** What a merge made of a file: its new text, and the entries it added (none: unchanged). */
export interface Merged {
  text: string;
  added: string[];
}

/** One thing `ralph init` sets up; paths are relative to the repository root, with `/`. */
export type PlannedItem =
  /** A file created when missing; replaced only with --force. */
  | { kind: 'file'; path: string; content: () => Promise<string> }
  /** A folder created when missing. */
  | { kind: 'directory'; path: string }
  /** A file the user shares with ralph: entries are added, the user's are kept, with or without --force. */
  | { kind: 'merge'; path: string; merge: (existing: string | undefined) => Merged };

/** Everything `ralph init` sets up, in the order it is done and reported. */
export function planInit(options: { ci?: CiProvider }): PlannedItem[] {
  const items: PlannedItem[] = [
    fromTemplate('ralph/prompt.md', 'prompt.md'),
    fromTemplate('ralph/prd.md', 'prd.md'),
    fromTemplate('ralph/tasks.json', 'tasks.json'),
    fromTemplate('ralph/progress.txt', 'progress.txt'),
    { kind: 'directory', path: 'ralph/logs/' },
    // The same list `ralph run` puts in .git/info/exclude, so the two never disagree.
    { kind: 'merge', path: '.gitignore', merge: (existing) => mergeGitignore(existing, LOOP_OWNED_PATHS) },
  ];
  if (options.ci === 'github') items.push(fromTemplate('.github/workflows/ralph.yml', 'github-workflow.yml'));
  return items;
}

function fromTemplate(path: string, template: string): PlannedItem {
  return { kind: 'file', path, content: () => readTemplate(template) };
}
