/** `1 iteration`, `2 iterations`, `1 story`, `0 stories`: a count and its noun, in the right number. */
export function counted(count: number, noun: string, plural = pluralOf(noun)): string {
  return `${count} ${count === 1 ? noun : plural}`;
}

/** `story` → `stories`, `iteration` → `iterations`, `byte` → `bytes`. */
function pluralOf(noun: string): string {
  return /[^aeiou]y$/.test(noun) ? `${noun.slice(0, -1)}ies` : `${noun}s`;
}
