/** JSON text parsed, or why it is not JSON (one line, for "FILE is not valid JSON (…)"). */
export type JsonParse = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * The one way ralph parses a JSON file it reads (tasks.json, config.json, state, the lock, the
 * hook's input…). A UTF-8 byte-order mark, which Windows editors write and JSON.parse rejects as
 * an invisible "unexpected token", is accepted.
 */
export function parseJson(text: string): JsonParse {
  try {
    return { ok: true, value: JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}
