import { join } from 'node:path';
import { RalphError } from '../errors.js';
import { readOptional } from '../files/signal-files.js';
import { parseTasks } from '../files/tasks.js';
import { shownPath } from '../files/paths.js';

/** The prompt file names ralph.sh used: prompt.md (Amp), CLAUDE.md (Claude Code). */
const LEGACY_PROMPTS = ['prompt.md', 'CLAUDE.md'] as const;

/** What `ralph init --from` read from a ralph.sh folder; nothing there is ever changed. */
export interface RalphShSetup {
  /** The folder, as the user named it. */
  shown: string;
  /** prd.json's text, as it is: ralph reads `userStories`, `branchName`, ids and `passes` unchanged. */
  tasks: string;
  progress?: string;
  prompt?: { name: (typeof LEGACY_PROMPTS)[number]; text: string };
}

/** Reads the ralph.sh layout in `dir`: prd.json must be there and be a valid task list. */
export async function readRalphSh(dir: string, cwd: string): Promise<RalphShSetup> {
  const shown = shownPath(cwd, dir);
  const tasks = await readOptional(join(dir, 'prd.json'));
  if (tasks === undefined) {
    throw new RalphError(
      'setup',
      `${shown}/prd.json not found`,
      'name the folder that holds the ralph.sh files (prd.json, progress.txt, prompt.md or CLAUDE.md), e.g. --from scripts/ralph',
    );
  }
  const parsed = parseTasks(tasks);
  if (!parsed.ok)
    throw new RalphError(
      'setup',
      `${shown}/prd.json is not a valid task list: ${parsed.error}`,
      'fix it, then run `ralph init --from` again',
    );
  const progress = await readOptional(join(dir, 'progress.txt'));
  let prompt: RalphShSetup['prompt'];
  for (const name of LEGACY_PROMPTS) {
    const text = await readOptional(join(dir, name));
    if (text !== undefined) {
      prompt = { name, text };
      break;
    }
  }
  return { shown, tasks, ...(progress !== undefined ? { progress } : {}), ...(prompt ? { prompt } : {}) };
}

/** What the user should know about the old prompt next to ralph's: how the two loops differ. */
export function legacyPromptNotes(setup: RalphShSetup): string[] {
  if (!setup.prompt) return [`${setup.shown} has no prompt.md or CLAUDE.md: ralph/prompt.md is ralph's template`];
  const { name, text } = setup.prompt;
  const notes = [
    `your ${name} is kept as ralph/prompt.legacy.md; ralph sends ralph/prompt.md, not it. What differs:`,
    '  - the task list is ralph/tasks.json (your prd.json, unchanged), the notes ralph/progress.txt',
    "  - ralph switches to the task list's branchName itself; the agent need not check it out",
    '  - besides <promise>COMPLETE</promise> the agent may stop with BLOCKED:reason or DECIDE:question',
    '  - each story is reviewed before it counts (ralph run --skip-review turns that off)',
  ];
  if (/\bamp\b|AMP_CURRENT_THREAD_ID|ampcode/i.test(text))
    notes.push('  - it mentions Amp threads: ralph runs Claude Code, which has none');
  notes.push('  copy any project-specific rules from ralph/prompt.legacy.md into ralph/prompt.md');
  return notes;
}
