import type { EventReader } from '../event-reader.js';
import { assistantEvent, toolResultEvent } from '../output/event-parts.js';
import { isObject, num, obj, str, type Json } from '../output/json-fields.js';
import { unknownLine, type StreamEvent } from '../output/stream-events.js';

/**
 * Its retry notice on stderr when a call got no answer at all (0.61, `logRetryAttempt`); a retry
 * with an HTTP status (`failed with status 429`, a 5xx) is a busy server, which is waited out.
 */
const NO_ANSWER_RETRY = /^Attempt \d+ failed\. Retrying with backoff\.\.\./;

/**
 * `gemini --output-format stream-json` (0.61): `init`, `message` (the user's prompt, then the
 * assistant's words as `delta` chunks), `tool_use`, `tool_result`, `error` (severity warning or
 * error) and a final `result` whose status is success or error and which carries token counts but
 * no text and no cost. The deltas are joined until the next other event, so the loop reads the
 * assistant's words whole: a promise tag may be cut anywhere between two chunks.
 */
export function geminiEventReader(): EventReader {
  let pending = '';
  let lastMessage = '';
  /** The words gathered since the last other event, as one assistant event. */
  const flush = (): StreamEvent[] => {
    if (pending === '') return [];
    lastMessage = pending;
    pending = '';
    return [assistantEvent({ texts: [lastMessage] })];
  };
  return {
    read(json) {
      if (!isObject(json)) return [unknownLine(typeof json)];
      const type = str(json.type) ?? 'unknown';
      if (type === 'message') {
        if (json.role === 'assistant') pending += str(json.content) ?? '';
        return [];
      }
      const held = flush();
      switch (type) {
        case 'init':
          return [...held, { type: 'init', ...(str(json.model) ? { model: str(json.model) } : {}) }];
        case 'tool_use': {
          const use = {
            id: str(json.tool_id) ?? '',
            name: str(json.tool_name) ?? 'tool',
            input: json.parameters ?? {},
          };
          return [...held, assistantEvent({ toolUses: [use] })];
        }
        case 'tool_result': {
          const failed = json.status !== 'success';
          const output = failed ? (str(obj(json.error).message) ?? str(json.output)) : str(json.output);
          return [...held, toolResultEvent(str(json.tool_id) ?? '', failed, output)];
        }
        case 'error':
          // A warning (a loop detected, a blocked hook) is shown; only an error is the client failing.
          return [
            ...held,
            json.severity === 'error'
              ? assistantEvent({ error: str(json.message) ?? '' })
              : { type: 'other', name: 'warning' },
          ];
        case 'result':
          return [...held, readResult(json, lastMessage)];
        default:
          return [...held, unknownLine(type)];
      }
    },
    end: () => flush(),
    stderrRetry: (line) => (NO_ANSWER_RETRY.test(line.trim()) ? line.trim().slice(0, 200) : undefined),
  };
}

/** The final `result`: its status, the error's message when it failed, and the session's tokens. */
function readResult(json: Json, lastMessage: string): StreamEvent {
  const stats = obj(json.stats);
  const failed = json.status !== 'success';
  return {
    type: 'result',
    result: {
      isError: failed,
      subtype: str(json.status) ?? '',
      text: failed ? (str(obj(json.error).message) ?? '') : lastMessage,
      inputTokens: num(stats.input_tokens),
      outputTokens: num(stats.output_tokens),
    },
  };
}
