/** `2026-06-15T14:30:00Z`: ISO-8601 UTC to the second. */
export function isoSeconds(epochMs: number): string {
  return new Date(epochMs).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
