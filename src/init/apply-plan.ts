import { lstat, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { RalphError } from '../errors.js';
import type { PlannedItem } from './init-plan.js';
import { unlessMissing } from '../files/missing-file.js';
import { backUp } from './reset-files.js';
import type { Merged } from '../files/merged.js';
import { readOwnFile } from '../files/own-file.js';
import { replaceOwnFile } from '../files/replace-own-file.js';

/** What happened to one planned item. */
export type ItemOutcome =
  | { path: string; result: 'created' }
  /** Existed and was overwritten, with --force. */
  | { path: string; result: 'replaced' }
  /** Existed, was copied to `backup` (a path relative to the root) and replaced, with --reset. */
  | { path: string; result: 'reset'; backup: string }
  /** Existed and was left alone; `yours` when only --reset would replace it. */
  | { path: string; result: 'exists'; yours?: boolean }
  /** A merge added entries. */
  | { path: string; result: 'updated'; added: string[] }
  /** A merge found every entry already there, or --force found the same content. */
  | { path: string; result: 'unchanged' }
  /** A merge could not safely edit the file and left it as it was; the warning says what to do. */
  | { path: string; result: 'skipped'; warning: string };

/** The user's word on existing files: --force for ralph's own, --reset for the named files of the user's. */
export interface Replace {
  force: boolean;
  /** Repository paths named by --reset (`ralph/tasks.json`). */
  reset: readonly string[];
}

/** Carries out the plan under `root`, one item at a time; never overwrites without the user's word. */
export async function applyPlan(root: string, items: readonly PlannedItem[], options: Replace): Promise<ItemOutcome[]> {
  const outcomes: ItemOutcome[] = [];
  for (const item of items) {
    try {
      outcomes.push(await applyItem(root, item, options));
    } catch (error) {
      if (error instanceof RalphError) throw error;
      throw new RalphError(
        'setup',
        `cannot set up ${item.path}: ${(error as Error).message}`,
        'free the path or fix its permissions, then run `ralph init` again',
      );
    }
  }
  return outcomes;
}

async function applyItem(root: string, item: PlannedItem, replace: Replace): Promise<ItemOutcome> {
  const { path } = item;
  // A trailing `/` marks a folder in the report; the file system wants the bare path.
  const target = join(root, path).replace(/\/$/, '');
  switch (item.kind) {
    case 'directory':
      if (await exists(target)) {
        if (!(await lstat(target)).isDirectory())
          throw new RalphError(
            'setup',
            `${path} exists but is not a folder`,
            'move it away, then run `ralph init` again',
          );
        return { path, result: 'exists' };
      }
      await mkdir(target, { recursive: true });
      return { path, result: 'created' };
    case 'merge': {
      // The work tree is the agent's to write: a FIFO left there is refused at once, never waited on.
      const existing = await readOwnFile(target);
      const merged = item.merge(existing);
      if (merged.warning !== undefined) return { path, result: 'skipped', warning: merged.warning };
      if (merged.added.length === 0) return { path, result: 'unchanged' };
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, merged.text);
      return existing === undefined ? { path, result: 'created' } : { path, result: 'updated', added: merged.added };
    }
    case 'file': {
      const content = await item.content();
      await mkdir(dirname(target), { recursive: true });
      if (!(await exists(target))) {
        // 'wx': a file that appeared since the check is still never overwritten.
        await writeFile(target, content, { flag: 'wx' });
        return { path, result: 'created' };
      }
      if (item.replacedBy === 'reset' && replace.reset.includes(path)) {
        const backup = await backUp(target);
        await writeFile(target, content);
        return { path, result: 'reset', backup: relative(root, backup) };
      }
      if (item.replacedBy === 'reset' && item.amend && replace.force) return amendFile(root, target, path, item.amend);
      if (item.replacedBy === 'reset' || !replace.force)
        return { path, result: 'exists', ...(item.replacedBy === 'reset' ? { yours: true } : {}) };
      if ((await readOwnFile(target)) === content) return { path, result: 'unchanged' };
      await writeFile(target, content);
      return { path, result: 'replaced' };
    }
  }
}

/**
 * A file of the user's edited in the one place the flags name; the rest of it is kept as it is.
 * Read and replaced as ralph's own files are: a link planted in its place is refused, not followed.
 */
async function amendFile(
  root: string,
  target: string,
  path: string,
  amend: (existing: string) => Merged,
): Promise<ItemOutcome> {
  const merged = amend((await readOwnFile(target)) ?? '');
  if (merged.warning !== undefined) return { path, result: 'skipped', warning: merged.warning };
  if (merged.added.length === 0) return { path, result: 'unchanged' };
  await replaceOwnFile(root, target, merged.text);
  return { path, result: 'updated', added: merged.added };
}

async function exists(path: string): Promise<boolean> {
  return (await unlessMissing(() => lstat(path))) !== undefined;
}
