// Counts keyed by names the agent chooses (story ids, tool names): `__proto__`, `toString` or
// `constructor` are keys like any other here, never the properties every plain object inherits.

/** Counts by key, with no prototype: no key reads or writes an inherited property. */
export type KeyedCounts = Record<string, number>;

/** An empty set of counts. */
export function emptyCounts(): KeyedCounts {
  return Object.create(null) as KeyedCounts;
}

/** The count for a key: its own value when it is a count (a whole number from 0), else 0. */
export function countOf(counts: KeyedCounts, key: string): number {
  if (!Object.hasOwn(counts, key)) return 0;
  const value = counts[key];
  // `> 0`, not `>= 0`: JSON's `-0` is a safe integer too, and would read back as -0 (shown "-0").
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0 ? value : 0;
}

/** A copy with the key's count set; the copy has no prototype either. */
export function withCount(counts: KeyedCounts, key: string, value: number): KeyedCounts {
  const next = copyCounts(counts);
  next[key] = value;
  return next;
}

/** Counts read from JSON (state.json), kept to own keys whose values are counts. */
export function copyCounts(value: unknown): KeyedCounts {
  const counts = emptyCounts();
  if (typeof value !== 'object' || value === null) return counts;
  for (const key of Object.keys(value)) {
    const count = countOf(value as KeyedCounts, key);
    if (count > 0) counts[key] = count;
  }
  return counts;
}
