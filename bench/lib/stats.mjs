// Small statistics for noisy machines: medians and ranges, never means of a handful of runs.

/**
 * @typedef {{ median: number, min: number, max: number, n: number }} Summary
 */

/** The median of a non-empty list. @param {number[]} values */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** Median, minimum and maximum of runs; undefined when there were none. @returns {Summary | undefined} */
export function summarize(/** @type {number[]} */ values) {
  if (values.length === 0) return undefined;
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), n: values.length };
}

/** The ratio a/b of each pair of runs made side by side (run i of one with run i of the other). */
export function pairRatios(/** @type {number[]} */ a, /** @type {number[]} */ b) {
  const pairs = Math.min(a.length, b.length);
  return Array.from({ length: pairs }, (_, i) => a[i] / b[i]);
}
