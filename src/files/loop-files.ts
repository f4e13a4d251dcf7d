import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ownFile } from '../errors.js';
import type { ActiveLock } from './active-lock.js';
import type { UsageWindow } from '../domain/usage.js';
import type { LoopFiles } from '../loop/ports.js';
import type { TasksParse } from '../domain/tasks.js';
import type { RunPaths } from './record-paths.js';
import { replaceOwnFile } from './replace-own-file.js';
import { readPromptFile } from './prompt-file.js';
import { readFileWithin } from './file-within.js';
import { writeBlocked, writeDecide } from './signal-files.js';
import { askedDecideState, readDecideExchange, rememberQuestion } from './decide-record.js';
import { parseTasks } from './tasks.js';
import { updateListEntry } from './list-record.js';
import { addReviewRejection, takeResolvedBlock, updateRunState } from './run-state.js';
import { readTemplate } from '../templates.js';
import { headRecorder } from './loop-heads.js';
import { recordPace } from './pace-record.js';

/** A task list that is not there, as the loop reads it. */
const MISSING: TasksParse = { ok: false, error: 'cannot be read (it is missing)' };

/**
 * The loop's file port over the real ralph/ folder. A failed read or write of one of these files
 * is an `io` RalphError naming it (the run ends with io_error); a removed ralph/logs is recreated.
 * `writeUsage` records the agent's usage windows in `.ralph-active` as they come.
 */
export function createLoopFiles(
  paths: RunPaths,
  promptPath: string,
  lock: ActiveLock,
  taskList: string,
): LoopFiles & { writeUsage(windows: UsageWindow[]): Promise<void> } {
  const { records } = paths;
  let tasks: { text: string; parse: TasksParse } | undefined;
  return {
    readPrompt: () =>
      readPromptFile(paths.root, promptPath, promptPath, 'restore it: the run reads it every iteration'),
    readTasks: () => Promise.resolve().then(() => (tasks = readTaskList(paths, tasks))?.parse ?? MISSING),
    decideState: () => askedDecideState(paths, taskList),
    readDecideExchange: () => readDecideExchange(paths.decide),
    takeBlockResolution: () => takeResolvedBlock(paths.records, taskList),
    writeBlocked: (entry) => writeBlocked(paths.root, paths.blocked, entry),
    writeDecide: async (entry) => {
      await writeDecide(paths.root, paths.decide, entry);
      await rememberQuestion(paths, taskList);
    },
    recordPace: (sample) => recordPace(records, taskList, sample),
    readModeGuide: modeGuides(),
    snapshotTasks: tasksSnapshotter(paths),
    recordReviewRejection: (storyId) => addReviewRejection(paths.records, taskList, storyId),
    writeFeedback: async (iteration, text) => {
      const name = `feedback-${String(iteration).padStart(3, '0')}.md`;
      await replaceOwnFile(paths.root, join(paths.logs, name), text);
      return `ralph/logs/${name}`;
    },
    // A new iteration: no agent is running until it starts (its group is recorded then). The usage
    // windows stay from one iteration to the next: the agent reports them only now and then.
    writeActive: (state) =>
      ownFile(paths.active, 'write', () => lock.update({ story: undefined, ...state, agentGroup: undefined })),
    writeUsage: (windows) => ownFile(paths.active, 'write', () => lock.update({ usage: windows })),
    recordSeenApprovals: seenApprovalsRecorder(records, taskList),
    recordList: listRecorder(records, taskList),
    recordHead: headRecorder(records.dir),
    saveUnconfirmedApprovals: async (ids) => {
      await updateRunState(records, taskList, ({ unconfirmedApprovals: _previous, ...current }) => ({
        ...current,
        ...(ids.length > 0 ? { unconfirmedApprovals: [...ids] } : {}),
      }));
    },
  };
}

/**
 * The mode guides, read once a run: they are ralph's own files, beside its code, and each
 * iteration's prompt takes one or two of them (four reads on libuv's pool apiece).
 */
function modeGuides(): LoopFiles['readModeGuide'] {
  const read = new Map<string, Promise<string>>();
  return (name) => {
    const known = read.get(name);
    if (known) return known;
    const text = readTemplate(`modes/${name}.md`);
    read.set(name, text);
    // A failed read is not kept: the next iteration tries again, as it did before.
    text.catch(() => read.delete(name));
    return text;
  };
}

// Each writer below keeps what this run last wrote, so that nothing is written again unchanged: the
// snapshot grows with the task list, and each rename of a record waits for the disk when it is busy
// (bench/RESULTS.md).

/**
 * The copy of the task list the Stop hook compares against. No stale snapshot: when the copy fails
 * the hook finds none and allows, rather than comparing against an old one.
 */
function tasksSnapshotter({ root, tasks, records }: RunPaths): () => Promise<void> {
  let snapshot: string | undefined;
  return async () => {
    const text = await Promise.resolve()
      .then(() => readFileWithin(root, tasks))
      .catch(() => undefined);
    if (text !== undefined && text === snapshot) return;
    snapshot = undefined;
    await (text === undefined
      ? ownFile(records.tasksSnapshot, 'write', () => rm(records.tasksSnapshot, { force: true }))
      : replaceOwnFile(records.base, records.tasksSnapshot, text));
    snapshot = text;
  };
}

/** The run is open from its first iteration on; the approvals change only when a story is approved. */
function seenApprovalsRecorder(
  records: RunPaths['records'],
  taskList: string,
): (ids: readonly string[]) => Promise<void> {
  let seen: string | undefined;
  return async (ids) => {
    const key = JSON.stringify(ids);
    if (key === seen) return;
    seen = undefined;
    await updateRunState(records, taskList, (current) => ({ ...current, runOpen: true, seenApprovals: [...ids] }));
    seen = key;
  };
}

/** Each list seen is written only when it changes what lists.json holds: its stories only grow. */
function listRecorder(
  records: RunPaths['records'],
  key: string,
): (seen: { stories: readonly string[]; approved?: readonly string[] }) => Promise<void> {
  let written: string | undefined;
  return async (seen) => {
    const text = JSON.stringify(seen);
    if (text === written) return;
    written = undefined;
    await updateListEntry(records, key, (entry) => ({
      stories: [...new Set([...entry.stories, ...seen.stories])],
      approved: seen.approved ? [...seen.approved] : entry.approved,
    }));
    written = text;
  };
}

/**
 * The task list as the loop reads it. Not a regular file (a FIFO, a folder) or a link out of the
 * repository: refused, the run ends io_error or setup. Gone: said as the list's fault. The same
 * text as the last read is not parsed again: with 1,000 stories the parse is most of an
 * iteration's own work, and most iterations leave the list as it was.
 */
function readTaskList(
  paths: RunPaths,
  last: { text: string; parse: TasksParse } | undefined,
): { text: string; parse: TasksParse } | undefined {
  const text = readFileWithin(paths.root, paths.tasks);
  if (text === undefined) return undefined;
  return text === last?.text ? last : { text, parse: parseTasks(text) };
}
