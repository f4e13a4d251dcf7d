/** How far a key may be from a known one to be taken for it: a third of its letters, or two. */
const ROUGHLY = (candidate: string) => Math.max(2, Math.floor(candidate.length / 3));

/**
 * The known key nearest to a misspelt one, if any is near enough (`within`: by default a third of
 * its letters, or two): `maxIteration` → `maxIterations`, `pases` → `passes`. The one way ralph
 * suggests a key.
 */
export function closestKey(
  key: string,
  known: readonly string[],
  within: (candidate: string) => number = ROUGHLY,
): string | undefined {
  let best: { key: string; distance: number } | undefined;
  for (const candidate of known) {
    const limit = within(candidate);
    // Lengths further apart than the limit cannot come within it: no table to fill.
    if (Math.abs(key.length - candidate.length) > limit) continue;
    const distance = editDistance(key.toLowerCase(), candidate.toLowerCase());
    if (distance <= limit && (!best || distance < best.distance)) best = { key: candidate, distance };
  }
  return best?.key;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}
