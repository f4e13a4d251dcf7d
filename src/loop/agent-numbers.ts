import type { AgentFailure } from '../domain/agent-failure.js';
import {
  isAmount,
  isPlausibleReset,
  MAX_COST_USD,
  MAX_EPOCH_MS,
  MAX_RESET_AHEAD_MS,
  MAX_TOKENS,
  MAX_TURNS,
} from '../domain/numbers.js';
import type { UsageWindow } from '../domain/usage.js';
import type { AgentRun, AgentStats } from './port-data.js';

/** An agent's run with only the numbers that are measurements, and a warning for each that was not. */
export interface CheckedRun {
  run: AgentRun;
  warnings: string[];
}

const STAT_BOUNDS: readonly [keyof AgentStats, string, number][] = [
  ['costUsd', 'total_cost_usd', MAX_COST_USD],
  ['inputTokens', 'input_tokens', MAX_TOKENS],
  ['outputTokens', 'output_tokens', MAX_TOKENS],
  ['numTurns', 'num_turns', MAX_TURNS],
];

/**
 * Drops what the agent reported that is no measurement: a negative, infinite or absurd cost, token
 * or turn count (never summed, so --max-cost trips on real costs), a reset or retry time more than
 * a month from `now` (ralph's own backoff applies instead).
 */
export function checkAgentNumbers(run: AgentRun, now: number): CheckedRun {
  const warnings: string[] = [];
  const stats = { ...run.stats };
  for (const [key, name, max] of STAT_BOUNDS) {
    const value = stats[key];
    if (value === undefined || isAmount(value, max)) continue;
    warnings.push(`the agent reported ${name} ${String(value)}, which is not a count from 0 to ${max}: ignored`);
    delete stats[key];
  }
  const failure = run.failure && checkFailure(run.failure, now, warnings);
  const usage = run.usage?.map((window) => checkWindow(window, now, warnings));
  return {
    run: { ...run, stats, ...(failure ? { failure } : {}), ...(usage ? { usage } : {}) },
    warnings,
  };
}

function checkFailure(failure: AgentFailure, now: number, warnings: string[]): AgentFailure {
  // A limit no wait lifts (a monthly cap) only names its reset: any date a Date holds will do.
  const horizon = failure.kind === 'usage_limit' && failure.exhausted ? MAX_EPOCH_MS - MAX_RESET_AHEAD_MS : now;
  if (failure.kind === 'usage_limit' && failure.reset && !isPlausibleReset(failure.reset.at, horizon)) {
    warnings.push(implausible('a usage limit reset', failure.reset.at));
    const { reset: _dropped, ...rest } = failure;
    return rest;
  }
  if (failure.kind === 'error' && failure.busy?.retryAt !== undefined && !isPlausibleReset(failure.busy.retryAt, now)) {
    warnings.push(implausible('a retry', failure.busy.retryAt));
    const { retryAt: _dropped, ...busy } = failure.busy;
    return { ...failure, busy };
  }
  return failure;
}

function checkWindow(window: UsageWindow, now: number, warnings: string[]): UsageWindow {
  if (window.resetsAt === undefined || isPlausibleReset(window.resetsAt, now)) return window;
  warnings.push(implausible(`the ${window.window} window's reset`, window.resetsAt));
  const { resetsAt: _dropped, ...rest } = window;
  return rest;
}

function implausible(what: string, at: number): string {
  return `the agent reported ${what} at ${String(at)} ms since the epoch, not within a month from now: ignored (ralph's own backoff applies)`;
}
