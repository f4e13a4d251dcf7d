/** `47m 23s`, `2h 5m 0s`, `9s`: a duration for people. */
export function formatDuration(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (hours > 0) return `${hours}h ${minutes}m ${seconds}s`;
  if (minutes > 0) return `${minutes}m ${seconds}s`;
  return `${seconds}s`;
}

/** `max_iterations` → `MAX ITERATIONS`: the word for an ending in the summary block. */
export function reasonLabel(reason: string): string {
  return reason.replace(/_/g, ' ').toUpperCase();
}
