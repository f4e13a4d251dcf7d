/** What merging lines into a .gitignore produced: the new text, and the lines it had to add. */
export interface GitignoreMerge {
  text: string;
  added: string[];
}

const HEADING = "# ralph: the loop's own files (logs, signals, run lock)";

/**
 * Adds each line that `.gitignore` does not already have, below a heading, keeping the user's
 * text byte for byte. `ralph/logs/`, `/ralph/logs/` and `ralph/logs` count as the same line,
 * so a user's own spelling is never duplicated.
 */
export function mergeGitignore(existing: string | undefined, lines: readonly string[]): GitignoreMerge {
  const text = existing ?? '';
  const present = new Set(text.split(/\r?\n/).map(normalize));
  const added: string[] = [];
  for (const line of lines) {
    if (present.has(normalize(line))) continue;
    present.add(normalize(line));
    added.push(line);
  }
  if (added.length === 0) return { text, added };
  const separator = text === '' ? '' : text.endsWith('\n') ? '\n' : '\n\n';
  return { text: `${text}${separator}${HEADING}\n${added.join('\n')}\n`, added };
}

/** The path a pattern names, without the anchoring `/` or the directory-only `/`. */
function normalize(line: string): string {
  return line.trim().replace(/^\//, '').replace(/\/$/, '');
}
