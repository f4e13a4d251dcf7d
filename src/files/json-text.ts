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
    const message = unquoted((error as Error).message);
    return {
      ok: false,
      error: message === (error as Error).message ? withLineAndColumn(message, json) : where(message, json),
    };
  }
}

/**
 * V8 quotes the text itself in some of its messages (`Unexpected token 'r', "root:*:2020"... is not
 * valid JSON`, or `..."false},\n  ]\n}\n"` from further in): a file the agent replaced with a link
 * to a secret would be quoted into ralph's error, on the terminal and in CI logs, over several
 * lines. The quote goes; the unexpected character stays.
 */
function unquoted(message: string): string {
  return message.replace(/^(Unexpected token '[\s\S]*?'), (?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, '$1');
}

/** Above this, an unexpected token is given without its line and column. */
const MAX_LOCATED_CHARS = 1024 * 1024;

/**
 * An unexpected token's line and column, which V8 does not give (a trailing comma, the most
 * common slip in a file edited by hand). JSON is read left to right, so the shortest start of the
 * text that already fails on a token ends with that token: found by halving, on failure only.
 */
function where(message: string, json: string): string {
  // Some twenty parses of the text: for a file of a person's size, not one an agent blew up.
  if (json.length > MAX_LOCATED_CHARS || !failsOnToken(json)) return message;
  let [shortest, longest] = [1, json.length];
  while (shortest < longest) {
    const middle = Math.floor((shortest + longest) / 2);
    if (failsOnToken(json.slice(0, middle))) longest = middle;
    else shortest = middle + 1;
  }
  const before = json.slice(0, longest - 1).split('\n');
  return `${message} (line ${before.length} column ${(before.at(-1)?.length ?? 0) + 1})`;
}

/** Whether the text fails on a token, rather than by ending too soon or not at all. */
function failsOnToken(text: string): boolean {
  try {
    JSON.parse(text);
    return false;
  } catch (error) {
    return (error as Error).message.startsWith('Unexpected token');
  }
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
