// The shape of the results: table rows and targets, and how their numbers are written.

/**
 * @typedef {import('./stats.mjs').Summary} Summary
 * @typedef {object} Row
 * @property {string} scenario
 * @property {string} metric
 * @property {Summary | string} ralph        a summary of runs, or why there is none
 * @property {string} peer                   what ralph is compared with on this row
 * @property {Summary | string} peerValue
 * @property {Summary | string} ratio        ralph / peer, pair by pair
 * @property {number} [digits]
 * @typedef {object} Target
 * @property {string} goal
 * @property {string} measured
 * @property {boolean | undefined} pass      undefined: not measured in this build or on this machine
 */

/** `12.3 (11.8–13.0)`: the median, and the range when there was more than one run. */
export function formatSummary(/** @type {Summary | string} */ value, digits = 1) {
  if (typeof value === 'string') return value;
  const number = (/** @type {number} */ n) => n.toFixed(digits);
  return value.n > 1 ? `${number(value.median)} (${number(value.min)}–${number(value.max)})` : number(value.median);
}

/** A Row's value when it could not be measured. */
export const NOT_AVAILABLE = 'n/a';

/** The summary, or a reason when there were no runs. */
export function orReason(/** @type {Summary | undefined} */ summary, /** @type {string} */ reason) {
  return summary ?? reason;
}
