import { lstat, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { RalphError } from '../errors.js';
import { readOptional } from '../files/signal-files.js';
import type { PlannedItem } from './init-plan.js';
import { unlessMissing } from '../files/missing-file.js';

/** What happened to one planned item. */
export type ItemOutcome =
  | { path: string; result: 'created' }
  /** Existed and was overwritten, with --force. */
  | { path: string; result: 'replaced' }
  /** Existed and was left alone. */
  | { path: string; result: 'exists' }
  /** A merge added entries. */
  | { path: string; result: 'updated'; added: string[] }
  /** A merge found every entry already there, or --force found the same content. */
  | { path: string; result: 'unchanged' }
  /** A merge could not safely edit the file and left it as it was; the warning says what to do. */
  | { path: string; result: 'skipped'; warning: string };

/** Carries out the plan under `root`, one item at a time; never overwrites without `force`. */
export async function applyPlan(
  root: string,
  items: readonly PlannedItem[],
  options: { force: boolean },
): Promise<ItemOutcome[]> {
  const outcomes: ItemOutcome[] = [];
  for (const item of items) {
    try {
      // A trailing `/` marks a folder in the report; the file system wants the bare path.
      outcomes.push(await applyItem(join(root, item.path).replace(/\/$/, ''), item, options.force));
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

async function applyItem(target: string, item: PlannedItem, force: boolean): Promise<ItemOutcome> {
  const { path } = item;
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
      const existing = await readOptional(target);
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
      if (!force) return { path, result: 'exists' };
      if ((await readFile(target, 'utf8')) === content) return { path, result: 'unchanged' };
      await writeFile(target, content);
      return { path, result: 'replaced' };
    }
  }
}

async function exists(path: string): Promise<boolean> {
  return (await unlessMissing(() => lstat(path))) !== undefined;
}
