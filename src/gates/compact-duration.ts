/** `10m`, `1h30m`, `45s`, `300ms`: a duration in the grammar of ralph's duration options. */
export function compactDuration(ms: number): string {
  const whole = Math.max(0, Math.round(ms));
  if (whole === 0 || whole % 1000 !== 0) return `${whole}ms`;
  const total = whole / 1000;
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  return `${hours ? `${hours}h` : ''}${minutes ? `${minutes}m` : ''}${seconds ? `${seconds}s` : ''}`;
}
