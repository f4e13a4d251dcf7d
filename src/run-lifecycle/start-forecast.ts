import type { Forecast } from '../domain/forecast.js';
import type { RunState } from '../files/run-state.js';
import { forecastLines, shortLimitsLine } from '../status/forecast-text.js';
import { forecastOfState } from '../status/read-forecast.js';
import type { Check } from './check.js';

/** The limits a run was given that the forecast weighs. */
export interface RunLimits {
  maxCost?: number;
  maxIterations: number;
}

/**
 * What a run says of its forecast as it starts: the forecast's lines, then one warning when
 * --max-cost or --max-iterations will not suffice at the pace measured so far.
 */
export function startForecast(
  state: RunState,
  stories: { complete: number; total: number },
  limits: RunLimits,
  now: number,
): { lines: string[]; warning?: string } {
  const forecast = forecastOfState(state, stories.total - stories.complete, now);
  const warning = shortLimitsLine(forecast, limitsOf(limits));
  return { lines: forecastLines(forecast, now), ...(warning ? { warning } : {}) };
}

/** The forecast as the dry run lists it: a check with its lines, a warning when a limit falls short. */
export function forecastChecks(forecast: Forecast, limits: RunLimits, now: number): Check[] {
  const [first = '', ...windows] = forecastLines(forecast, now).map((line) => line.replace(/^forecast: /, '').trim());
  const checks: Check[] = [{ name: 'forecast', status: 'ok', detail: first }];
  for (const window of windows) checks.push({ name: 'forecast', status: 'ok', detail: window });
  const warning = shortLimitsLine(forecast, limitsOf(limits));
  if (warning) checks.push({ name: 'limits', status: 'warning', detail: warning });
  return checks;
}

function limitsOf(limits: RunLimits): { maxCostUsd?: number; maxIterations: number } {
  return {
    maxIterations: limits.maxIterations,
    ...(limits.maxCost === undefined ? {} : { maxCostUsd: limits.maxCost }),
  };
}
