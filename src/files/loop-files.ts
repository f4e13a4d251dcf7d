import { copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ownFile } from '../errors.js';
import type { ActiveLock } from './active-lock.js';
import type { UsageWindow } from '../domain/usage.js';
import type { LoopFiles } from '../loop/ports.js';
import type { RalphPaths } from './paths.js';
import { readPromptFile } from './prompt-file.js';
import { writeBlocked, writeDecide } from './signal-files.js';
import { askedDecideState, rememberQuestion } from './decide-record.js';
import { appendSummaryRow } from './summary-csv.js';
import { parseTasks } from './tasks.js';
import { addReviewRejection, updateRunState } from './run-state.js';
import { readTemplate } from '../templates.js';

/**
 * The loop's file port over the real ralph/ folder. A failed read or write of one of these files
 * is an `io` RalphError naming it (the run ends with io_error); a removed ralph/logs is recreated.
 * `writeUsage` records the agent's usage windows in `.ralph-active` as they come.
 */
export function createLoopFiles(
  paths: RalphPaths,
  promptPath: string,
  lock: ActiveLock,
  taskList: string,
): LoopFiles & { writeUsage(windows: UsageWindow[]): Promise<void> } {
  const inLogs = async <T>(path: string, work: () => Promise<T>) =>
    ownFile(path, 'write', async () => (await mkdir(dirname(path), { recursive: true }), work()));
  return {
    readPrompt: () => readPromptFile(promptPath, promptPath, 'restore it: the run reads it every iteration'),
    readTasks: async () => {
      try {
        return parseTasks(await readFile(paths.tasks, 'utf8'));
      } catch (error) {
        return { ok: false, error: `cannot be read (${(error as Error).message})` };
      }
    },
    decideState: () => askedDecideState(paths, taskList),
    writeBlocked: (entry) => ownFile(paths.blocked, 'write', () => writeBlocked(paths.blocked, entry)),
    writeDecide: async (entry) => {
      await ownFile(paths.decide, 'write', () => writeDecide(paths.decide, entry));
      await ownFile(paths.state, 'write', () => rememberQuestion(paths, taskList));
    },
    appendRow: (row) => inLogs(paths.summaryCsv, () => appendSummaryRow(paths.summaryCsv, row)),
    readModeGuide: (name) => readTemplate(`modes/${name}.md`),
    // No stale snapshot: when the copy fails the Stop hook finds none and allows, rather than
    // comparing against an old one.
    snapshotTasks: () =>
      copyFile(paths.tasks, paths.tasksSnapshot).catch(() =>
        ownFile(paths.tasksSnapshot, 'write', () => rm(paths.tasksSnapshot, { force: true })),
      ),
    recordReviewRejection: (storyId) =>
      ownFile(paths.state, 'write', () => addReviewRejection(paths.state, taskList, storyId)),
    writeFeedback: async (iteration, text) => {
      const name = `feedback-${String(iteration).padStart(3, '0')}.md`;
      await inLogs(join(paths.logs, name), () => writeFile(join(paths.logs, name), text));
      return `ralph/logs/${name}`;
    },
    // A new iteration: no agent is running until it starts (its group is recorded then). The usage
    // windows stay from one iteration to the next: the agent reports them only now and then.
    writeActive: (state) =>
      ownFile(paths.active, 'write', () => lock.update({ story: undefined, ...state, agentGroup: undefined })),
    writeUsage: (windows) => ownFile(paths.active, 'write', () => lock.update({ usage: windows })),
    recordSeenApprovals: async (ids) => {
      await ownFile(paths.state, 'write', () =>
        updateRunState(paths.state, taskList, (current) => ({ ...current, runOpen: true, seenApprovals: [...ids] })),
      );
    },
    saveUnconfirmedApprovals: async (ids) => {
      await ownFile(paths.state, 'write', () =>
        updateRunState(paths.state, taskList, ({ unconfirmedApprovals: _previous, ...current }) => ({
          ...current,
          ...(ids.length > 0 ? { unconfirmedApprovals: [...ids] } : {}),
        })),
      );
    },
  };
}
