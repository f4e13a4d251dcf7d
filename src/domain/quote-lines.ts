/** Quotes text in Markdown: every line, blank ones too, behind `> `, so the quote never breaks off. */
export function quoteLines(text: string): string {
  return text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}
