/** JSON text parsed, or why it is not JSON (one line, for "FILE is not valid JSON (…)"). */
export type JsonParse = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * The one way ralph parses a JSON file it reads (tasks.json, config.json, state, the lock, the
 * hook's input…). A UTF-8 byte-order mark, which Windows editors write and JSON.parse rejects as
 * an invisible "unexpected token", is accepted.
 */
export function parseJson(text: string): JsonParse {
  const json = text.startsWith('\uFEFF') ? text.slice(1) : text;
  try {
    return { ok: true, value: JSON.parse(json) };
  } catch (error) {
    return { ok: false, error: withLineAndColumn(unquoted((error as Error).message), json) };
  }
}

/**
 * V8 quotes the text itself in some of its messages (`Unexpected token 'r', "root:*:2020"... is not
 * valid JSON`): a file the agent replaced with a link to a secret would be quoted into ralph's
 * error, on the terminal and in CI logs. The quote goes; the unexpected character stays.
 */
function unquoted(message: string): string {
  return message.replace(/^(Unexpected token '[\s\S]*?'), "[\s\S]*"(?:\.\.\.)? is not valid JSON$/, '$1');
}

/**
 * Node 20 says where JSON broke as a character offset ("at position 42"), which no editor shows:
 * the line and column are added, as newer Node versions do themselves.
 */
export function withLineAndColumn(message: string, json: string): string {
  // (?!\d…): the digits must not give some back to slip past a line the message already has.
  const position = /at position (\d+)(?!\d| \(line)/.exec(message)?.[1];
  if (position === undefined) return message;
  const before = json.slice(0, Number(position)).split('\n');
  return `${message} (line ${before.length} column ${(before.at(-1)?.length ?? 0) + 1})`;
}

/** The indentation of a user's JSON file (a tab, or its first indent in spaces): an edit keeps it. */
export function indentOf(text: string): string | number {
  const indent = /^[ \t]+(?=\S)/m.exec(text)?.[0];
  if (indent === undefined) return 2;
  return indent.startsWith('\t') ? '\t' : indent.length;
}

/** A JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
