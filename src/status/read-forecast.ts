import { forecastOf, type Forecast } from '../domain/forecast.js';
import type { RecordPaths } from '../files/record-paths.js';
import { readRunState, type RunState } from '../files/run-state.js';

/**
 * The forecast from ralph's own records: the pace in state.json (record-paths.ts), which the agent's
 * box cannot write. summary.csv is not read for it: it lies in ralph/logs/, which the agent can
 * rewrite where no box runs. Only the count of stories left comes from the task list, the agent's
 * file, as everything about the list's progress does.
 */
export function forecastOfState(state: RunState, storiesLeft: number, now: number): Forecast {
  return forecastOf({ pace: state.pace, windows: state.paceWindows, storiesLeft, now });
}

/** The forecast for the task list `taskList` (its identity, run-state.ts) with `storiesLeft` stories left. */
export async function readForecast(
  records: RecordPaths,
  taskList: string,
  storiesLeft: number,
  now: number,
): Promise<Forecast> {
  return forecastOfState(await readRunState(records, taskList), storiesLeft, now);
}
