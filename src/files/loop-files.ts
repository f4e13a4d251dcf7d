import { copyFile, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ActiveFile } from './active-lock.js';
import { updateActive } from './active-lock.js';
import type { UsageWindow } from '../agent/usage-windows.js';
import type { LoopFiles } from '../loop/ports.js';
import type { RalphPaths } from './paths.js';
import { readDecideState, writeBlocked, writeDecide } from './signal-files.js';
import { appendSummaryRow } from './summary-csv.js';
import { parseTasks } from './tasks.js';
import { updateRunState } from './run-state.js';
import { readTemplate } from '../templates.js';

/** The loop's file port over the real ralph/ folder; `writeUsage` records the agent's usage windows in `.ralph-active` as they come. */
export function createLoopFiles(
  paths: RalphPaths,
  promptPath: string,
  lock: Pick<ActiveFile, 'pid' | 'startedAt'>,
  taskList: string,
): LoopFiles & { writeUsage(windows: UsageWindow[]): Promise<void> } {
  let active: ActiveFile | undefined;
  let writing: Promise<void> = Promise.resolve();
  // One write at a time: the loop's and the usage updates share the temporary file.
  const writeActive = (next: ActiveFile) => {
    active = next;
    writing = writing.catch(() => undefined).then(() => updateActive(paths.active, next));
    return writing;
  };
  return {
    readPrompt: () => readFile(promptPath, 'utf8'),
    readTasks: async () => {
      try {
        return parseTasks(await readFile(paths.tasks, 'utf8'));
      } catch (error) {
        return { ok: false, error: `cannot be read (${(error as Error).message})` };
      }
    },
    decideState: () => readDecideState(paths.decide),
    writeBlocked: (entry) => writeBlocked(paths.blocked, entry),
    writeDecide: (entry) => writeDecide(paths.decide, entry),
    appendRow: (row) => appendSummaryRow(paths.summaryCsv, row),
    readModeGuide: (name) => readTemplate(`modes/${name}.md`),
    // No stale snapshot: when the copy fails the Stop hook finds none and allows, rather than comparing against an old one.
    snapshotTasks: () => copyFile(paths.tasks, paths.tasksSnapshot).catch(() => rm(paths.tasksSnapshot, { force: true })),
    recordReviewRejection: async (storyId) => {
      const state = await updateRunState(paths.state, taskList, (current) => ({
        ...current,
        reviewRejections: { ...current.reviewRejections, [storyId]: (current.reviewRejections[storyId] ?? 0) + 1 },
      }));
      return state.reviewRejections[storyId] ?? 0;
    },
    writeFeedback: async (iteration, text) => {
      const name = `feedback-${String(iteration).padStart(3, '0')}.md`;
      await writeFile(join(paths.logs, name), text);
      return `ralph/logs/${name}`;
    },
    // The usage windows stay from one iteration to the next: the agent reports them only now and then.
    writeActive: (state) => writeActive({ ...lock, ...(active?.usage ? { usage: active.usage } : {}), ...state }),
    writeUsage: async (windows) => {
      if (active) await writeActive({ ...active, usage: windows });
    },
    saveUnconfirmedApprovals: async (ids) => {
      await updateRunState(paths.state, taskList, ({ unconfirmedApprovals: _previous, ...current }) => ({ ...current, ...(ids.length > 0 ? { unconfirmedApprovals: [...ids] } : {}) }));
    },
  };
}
