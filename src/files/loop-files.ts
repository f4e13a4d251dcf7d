import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ActiveFile } from './active-lock.js';
import { updateActive } from './active-lock.js';
import type { LoopFiles } from '../loop/ports.js';
import type { RalphPaths } from './paths.js';
import { readDecideState, writeBlocked, writeDecide } from './signal-files.js';
import { appendSummaryRow } from './summary-csv.js';
import { parseTasks } from './tasks.js';

/** The loop's file port over the real ralph/ folder. */
export function createLoopFiles(paths: RalphPaths, promptPath: string, lock: Pick<ActiveFile, 'pid' | 'startedAt'>): LoopFiles {
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
    writeFeedback: async (iteration, text) => {
      const name = `feedback-${String(iteration).padStart(3, '0')}.md`;
      await writeFile(join(paths.logs, name), text);
      return `ralph/logs/${name}`;
    },
    writeActive: (state) => updateActive(paths.active, { ...lock, ...state }),
  };
}
