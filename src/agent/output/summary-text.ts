/** Text shortened for one-line summaries: tool calls, tool results, failures. */

/** The first line of `text` that is not blank, trimmed. Looks no further than it must: tool output can be megabytes. */
export function firstLine(text: string): string {
  for (let start = 0; start < text.length;) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline;
    const line = text.slice(start, end).trim();
    if (line !== '') return line;
    start = end + 1;
  }
  return '';
}

/** The text cut to `max` characters, an ellipsis marking the cut. */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** A whole number with thousands separators ("12,345"), without loading ICU's locale data for it. */
export function groupThousands(value: number): string {
  return String(Math.round(value)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
