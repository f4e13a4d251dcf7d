import { addToPace, addWindowReadings, sanePace, saneWindows, type PaceSample } from '../domain/pace.js';
import type { RecordPaths } from './record-paths.js';
import { updateRunState } from './run-state.js';

/**
 * Adds one iteration to the task list's pace in state.json, in ralph's records: the forecast's
 * measure is ralph's own count, never summary.csv (ralph/logs/, which the agent can rewrite).
 */
export async function recordPace(records: RecordPaths, taskList: string, sample: PaceSample): Promise<void> {
  await updateRunState(records, taskList, (state) => {
    const pace = addToPace(sanePace(state.pace), sample);
    const paceWindows = addWindowReadings(saneWindows(state.paceWindows), sample.usage, pace.iterations);
    return { ...state, pace, ...(paceWindows.length > 0 ? { paceWindows } : {}) };
  });
}
