import { relative, sep } from 'node:path';
import { ownFile } from '../errors.js';
import { readOwnFile } from './own-file.js';
import { replaceOwnFile } from './replace-own-file.js';
import { parseJson } from './json-text.js';
import { lazySchema } from './lazy-zod.js';
import type { RecordPaths } from './record-paths.js';

/** What ralph saw of one task list file: the stories it held, and the approvals a review or a person gave. */
export interface ListEntry {
  /** Every story id ralph has seen in the list: one missing at a start was removed without a person's word. */
  stories: string[];
  /** The approvals ralph saw a review make, took at first sight, or a person vouched for (--accept-approvals). */
  approved: string[];
}

/**
 * lists.json in the records: per task list file (its path in the work tree, which ralph chose, never a
 * name the agent writes), what ralph saw. `since`: when ralph first took the lists as it found them;
 * absent, ralph has no record yet and the next run's start takes one.
 */
export interface ListRecord {
  since?: string;
  lists: Record<string, ListEntry>;
}

/** The key of a task list file in the records: its path from the work tree's root, with `/`. */
export function listKey(root: string, file: string): string {
  return relative(root, file).split(sep).join('/');
}

const recordSchema = lazySchema((zod) =>
  zod.object({
    since: zod.optional(zod.string()),
    lists: zod.record(
      zod.string(),
      zod.object({ stories: zod.array(zod.string()), approved: zod.array(zod.string()) }),
    ),
  }),
);

/** lists.json as stored; a damaged or missing file reads as no record (the next start takes one). */
export async function readListRecord(records: RecordPaths): Promise<ListRecord> {
  const text = await ownFile(records.lists, 'read', () => readOwnFile(records.lists));
  const parsed = text === undefined ? undefined : parseJson(text);
  const checked = parsed?.ok ? recordSchema().safeParse(parsed.value) : undefined;
  const lists = Object.create(null) as ListRecord['lists'];
  if (!checked?.success) return { lists };
  // Copied into a record without a prototype: a key is a list's path, never `__proto__`'s meaning.
  for (const [key, entry] of Object.entries(checked.data.lists)) lists[key] = entry;
  return { ...(checked.data.since === undefined ? {} : { since: checked.data.since }), lists };
}

/** Changes lists.json, whole or not at all (only the one running loop writes it). */
export async function updateListRecord(
  records: RecordPaths,
  change: (record: ListRecord) => ListRecord,
): Promise<ListRecord> {
  const next = change(await readListRecord(records));
  await ownFile(records.lists, 'write', () =>
    replaceOwnFile(records.base, records.lists, `${JSON.stringify(next, null, 2)}\n`),
  );
  return next;
}

/** Changes one list's entry (a fresh one when the record has none). */
export function updateListEntry(
  records: RecordPaths,
  key: string,
  change: (entry: ListEntry) => ListEntry,
): Promise<ListRecord> {
  return updateListRecord(records, (record) => ({
    ...record,
    lists: { ...record.lists, [key]: change(entryOf(record, key) ?? { stories: [], approved: [] }) },
  }));
}

/**
 * The approvals a list claims that ralph has no record of: none while ralph has no record at all
 * (the next start takes the list as it finds it), every one of a list it has never seen since.
 */
export function unrecordedApprovals(record: ListRecord, key: string, approved: readonly string[]): string[] {
  if (record.since === undefined) return [];
  const known = new Set(entryOf(record, key)?.approved ?? []);
  return approved.filter((id) => !known.has(id));
}

/** The entry of one list file, when the record has one (a key is a plain key: never a prototype's). */
export function entryOf(record: ListRecord, key: string): ListEntry | undefined {
  return Object.hasOwn(record.lists, key) ? record.lists[key] : undefined;
}

/** Drops one list's entry (its file was archived): the next list in that file is other work. */
export async function forgetList(records: RecordPaths, key: string): Promise<void> {
  if (entryOf(await readListRecord(records), key) === undefined) return;
  await updateListRecord(records, (latest) => {
    const lists = Object.create(null) as ListRecord['lists'];
    for (const [file, entry] of Object.entries(latest.lists)) if (file !== key) lists[file] = entry;
    return { ...latest, lists };
  });
}
