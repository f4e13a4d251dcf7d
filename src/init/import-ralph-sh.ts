import { join } from 'node:path';
import { RalphError } from '../errors.js';
import { readOwnFile } from '../files/own-file.js';
import { parseTasks } from '../files/tasks.js';
import { shownPath } from '../files/paths.js';

/** What `ralph init --from` read from a ralph.sh folder; nothing there is ever changed. */
export interface RalphShSetup {
  /** The folder, as the user named it. */
  shown: string;
  /** prd.json's text, as it is: ralph reads `userStories`, `branchName`, ids and `passes` unchanged. */
  tasks: string;
  progress?: string;
  /** The prompt files looked for, the one ralph.sh used by default first (src/agent/ralph-sh.ts). */
  prompts: readonly string[];
  /** The first of them there. */
  prompt?: { name: string; text: string };
}

/**
 * Reads the ralph.sh layout in `dir`: prd.json must be there and be a valid task list. `prompts`:
 * the files ralph.sh's clients read their prompt from, the one it used by default first.
 */
export async function readRalphSh(dir: string, cwd: string, prompts: readonly string[]): Promise<RalphShSetup> {
  const shown = shownPath(cwd, dir);
  const names = prompts.join(' or ');
  const tasks = await readOwnFile(join(dir, 'prd.json'));
  if (tasks === undefined) {
    throw new RalphError(
      'setup',
      `${shown}/prd.json not found`,
      `name the folder that holds the ralph.sh files (prd.json, progress.txt, ${names}), e.g. --from scripts/ralph`,
    );
  }
  const parsed = parseTasks(tasks);
  if (!parsed.ok)
    throw new RalphError(
      'setup',
      `${shown}/prd.json is not a valid task list: ${parsed.error}`,
      'fix it, then run `ralph init --from` again',
    );
  const progress = await readOwnFile(join(dir, 'progress.txt'));
  let prompt: RalphShSetup['prompt'];
  for (const name of prompts) {
    const text = await readOwnFile(join(dir, name));
    if (text !== undefined) {
      prompt = { name, text };
      break;
    }
  }
  return { shown, tasks, ...(progress !== undefined ? { progress } : {}), prompts, ...(prompt ? { prompt } : {}) };
}

/**
 * What the user should know about the old prompt next to ralph's: how the two loops differ.
 * `leansOnItsClient`: what the prompt asks of ralph.sh's client that the one ralph runs lacks.
 */
export function legacyPromptNotes(
  setup: RalphShSetup,
  leansOnItsClient: (text: string) => string | undefined,
): string[] {
  if (!setup.prompt)
    return [`${setup.shown} has no ${setup.prompts.join(' or ')}: ralph/prompt.md is ralph's template`];
  const { name, text } = setup.prompt;
  const notes = [
    `your ${name} is kept as ralph/prompt.legacy.md; ralph sends ralph/prompt.md, not it. What differs:`,
    '  - the task list is ralph/tasks.json (your prd.json, unchanged), the notes ralph/progress.txt',
    "  - ralph switches to the task list's branchName itself; the agent need not check it out",
    '  - besides <promise>COMPLETE</promise> the agent may stop with BLOCKED:reason or DECIDE:question',
    '  - each story is reviewed before it counts (ralph run --skip-review turns that off)',
  ];
  const leans = leansOnItsClient(text);
  if (leans !== undefined) notes.push(`  - ${leans}`);
  notes.push('  copy any project-specific rules from ralph/prompt.legacy.md into ralph/prompt.md');
  return notes;
}
