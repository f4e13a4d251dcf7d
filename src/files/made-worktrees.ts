import { dirname, join } from 'node:path';
import { parseJson } from './json-text.js';
import { lazySchema } from './lazy-zod.js';
import { appendOwnFile, readOwnFile } from './own-file.js';

/**
 * ralph's record of the lists' worktrees it made, one JSON line each, in the main checkout's record
 * folder (`<common git dir>/ralph`), which every box holds read-only: a worktree is reused, and its
 * records under its git dir believed, only when ralph made it. One the agent added before a box held
 * `.git/worktrees` (or an older ralph's) carries records nobody vouches for.
 */
export const MADE_WORKTREES_FILE = 'worktrees.jsonl';

/** One worktree ralph added: its folder, relative to the main checkout, and its git dir's name in `.git/worktrees/`. */
export interface MadeWorktree {
  dir: string;
  name: string;
}

const entrySchema = lazySchema((zod) =>
  zod.strictObject({ dir: zod.string().check(zod.minLength(1)), name: zod.string().check(zod.minLength(1)) }),
);

/** Adds one worktree to the record in `records` (the shared record folder), as it is made. */
export async function recordMadeWorktree(records: string, made: MadeWorktree): Promise<void> {
  // The record folder sits in the git dir, outside the work tree: the git dir is the root no link may leave.
  await appendOwnFile(dirname(records), join(records, MADE_WORKTREES_FILE), `${JSON.stringify(made)}\n`);
}

/** Whether the record in `records` names this worktree; a line that is no entry counts for nothing. */
export async function isMadeWorktree(records: string, worktree: MadeWorktree): Promise<boolean> {
  const text = (await readOwnFile(join(records, MADE_WORKTREES_FILE))) ?? '';
  return text.split('\n').some((line) => {
    const json = line.trim() === '' ? undefined : parseJson(line);
    const parsed = json?.ok ? entrySchema().safeParse(json.value) : undefined;
    return parsed?.success === true && parsed.data.dir === worktree.dir && parsed.data.name === worktree.name;
  });
}
