import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { TaskList } from '../domain/tasks.js';
import { RalphError } from '../errors.js';
import { readOwnFile } from '../files/own-file.js';
import type { RunPaths } from '../files/record-paths.js';
import { parseTasks } from '../files/tasks.js';
import {
  entryOf,
  listKey,
  readListRecord,
  unrecordedApprovals,
  updateListRecord,
  type ListEntry,
  type ListRecord,
} from '../files/list-record.js';
import { approvedIds } from '../loop/approvals.js';
import { LISTS_DIR } from '../lists/list-dirs.js';

/** A person's word given on the command line for this start (never replayed, never from a file). */
export interface PersonsWord {
  /** --accept-removed: the stories missing from the list since ralph last saw it were removed on purpose. */
  acceptRemoved: boolean;
  /** --accept-approvals: the list's approvals ralph has no record of are the person's. */
  acceptApprovals: boolean;
}

/**
 * What a run's start makes of its list against ralph's record of it (lists.json, keyed by the
 * list's file): a story gone since ralph last saw the list refuses the start, unless the person
 * says so; approvals ralph has no record of are unconfirmed (they go to review). Resolves to those.
 * A first start with no record at all takes every list in the work tree as it finds it.
 */
export async function checkListAtStart(
  paths: RunPaths,
  tasks: TaskList,
  word: PersonsWord,
  say: { line: (text: string) => void; warn: (text: string) => void },
  doubted: readonly string[] = [],
): Promise<string[]> {
  const key = listKey(paths.root, paths.tasks);
  let record = await readListRecord(paths.records);
  if (record.since === undefined) record = await takeFirstRecord(paths, key, tasks, doubted, say.line);
  const entry = entryOf(record, key);
  const ids = tasks.stories.map((story) => story.id);
  const missing = (entry?.stories ?? []).filter((id) => !ids.includes(id));
  if (missing.length > 0 && !word.acceptRemoved)
    throw new RalphError(
      'setup',
      `${missing.length === 1 ? 'a story was' : 'stories were'} removed from ${key} since ralph last saw it: ${missing.join(', ')}`,
      'put them back, or, if you removed them, run again with --accept-removed',
    );
  if (missing.length > 0) say.line(`ralph: the removal of ${missing.join(', ')} from ${key} is taken on your word`);
  const unrecorded = unrecordedApprovals(record, key, approvedIds(tasks));
  const approved = (entry?.approved ?? []).filter((id) => ids.includes(id));
  const vouched = word.acceptApprovals ? unrecorded : [];
  if (vouched.length > 0) say.line(`ralph: the approvals of ${vouched.join(', ')} in ${key} are taken on your word`);
  await updateListRecord(paths.records, (latest) => ({
    ...latest,
    lists: { ...latest.lists, [key]: { stories: ids, approved: [...approved, ...vouched] } },
  }));
  return word.acceptApprovals ? [] : unrecorded;
}

/**
 * The first record: every task list in the work tree as this start finds it, before any agent of
 * this ralph has run. Its approvals are taken as the person's (an older ralph kept no record of
 * them), but for `doubted`, the running list's approvals an older ralph's run state still doubted.
 */
async function takeFirstRecord(
  paths: RunPaths,
  key: string,
  tasks: TaskList,
  doubted: readonly string[],
  line: (text: string) => void,
): Promise<ListRecord> {
  const lists = Object.create(null) as Record<string, ListEntry>;
  for (const [file, list] of await listsInWorkTree(paths.root)) lists[file] = entryOfList(list, []);
  lists[key] = entryOfList(tasks, doubted);
  const taken = Object.entries(lists).filter(([, entry]) => entry.approved.length > 0);
  if (taken.length > 0)
    line(
      `ralph: no record of earlier reviews: the approved stories found now are taken as approved (${taken
        .map(([file, entry]) => `${entry.approved.length} in ${file}`)
        .join(', ')}); from now on only a review ralph sees approves a story`,
    );
  return updateListRecord(paths.records, () => ({ since: new Date().toISOString(), lists }));
}

function entryOfList(list: TaskList, doubted: readonly string[]): ListEntry {
  return {
    stories: list.stories.map((story) => story.id),
    approved: approvedIds(list).filter((id) => !doubted.includes(id)),
  };
}

/** ralph/tasks.json and every readable list under ralph/lists/, by their keys; what cannot be read is left out. */
async function listsInWorkTree(root: string): Promise<Array<[string, TaskList]>> {
  const dir = join(root, LISTS_DIR);
  const names = await readdir(dir).catch(() => [] as string[]);
  const files = [
    'ralph/tasks.json',
    ...names.filter((name) => name.endsWith('.json')).map((name) => `${LISTS_DIR}/${name}`),
  ];
  const found: Array<[string, TaskList]> = [];
  for (const file of files) {
    const text = await readOwnFile(join(root, file)).catch(() => undefined);
    const parsed = text === undefined ? undefined : parseTasks(text);
    if (parsed?.ok) found.push([file, parsed.tasks]);
  }
  return found;
}
