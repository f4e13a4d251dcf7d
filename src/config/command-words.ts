/**
 * Splits a `cmd:` notification command into its argv, the documented way (docs/notifications.md),
 * with no shell anywhere: words are separated by unquoted blanks; '…' keeps everything literally;
 * "…" keeps everything but `\"` and `\\`; outside quotes a backslash keeps the next character.
 * `$`, `|`, `;`, `*`, `~` and the rest are ordinary characters: nothing expands, nothing pipes.
 */
export function splitCommand(command: string): { ok: true; argv: string[] } | { ok: false; error: string } {
  const argv: string[] = [];
  let word = '';
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < command.length; i++) {
    const char = command[i]!;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === '\\' && (command[i + 1] === '"' || command[i + 1] === '\\')) word += command[++i];
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === '\\') {
      if (i + 1 === command.length) return { ok: false, error: 'a backslash ends the command' };
      word += command[++i];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) argv.push(word);
      word = '';
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (quote) return { ok: false, error: `a ${quote === "'" ? 'single' : 'double'} quote is never closed` };
  if (inWord) argv.push(word);
  if (argv.length === 0) return { ok: false, error: 'no command after cmd:' };
  return { ok: true, argv };
}
