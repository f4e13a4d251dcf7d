// Bounds for the numbers ralph takes from the agent and from files the agent can write: a value
// outside them is no measurement (a negative cost, a reset in the year 3e12), and is ignored with a
// warning rather than summed, compared or turned into a date.

/** The most one agent call can cost, in US dollars. */
export const MAX_COST_USD = 1e6;
/** The most tokens one call can count (input or output). */
export const MAX_TOKENS = 1e10;
/** The most turns one call can take. */
export const MAX_TURNS = 1e6;
/** How far ahead an announced reset may lie: a usage window is at most a month. */
export const MAX_RESET_AHEAD_MS = 31 * 24 * 3600 * 1000;
/** The largest epoch (ms) a JavaScript Date holds: beyond it `toISOString()` throws. */
export const MAX_EPOCH_MS = 8.64e15;

/** Whether a value is a measurement: a finite number from 0 to `max`. */
export function isAmount(value: number, max: number): boolean {
  return Number.isFinite(value) && value >= 0 && value <= max;
}

/** Whether an announced reset (epoch ms) lies at most MAX_RESET_AHEAD_MS after `now`, and after the epoch. */
export function isPlausibleReset(at: number, now: number): boolean {
  return Number.isFinite(at) && at > 0 && at <= now + MAX_RESET_AHEAD_MS;
}

/** An iteration number as ralph writes it: a positive integer of at most 9 digits. */
export function parseIterationNumber(text: string): number | undefined {
  return /^[1-9]\d{0,8}$/.test(text) ? Number(text) : undefined;
}
