import type { EventReader } from '../event-reader.js';
import { assistantEvent, toolCallEvents } from '../output/event-parts.js';
import { isObject, num, obj, str, type Json } from '../output/json-fields.js';
import { unknownLine, type StreamEvent } from '../output/stream-events.js';

/**
 * `opencode run --format json` (1.18): `{type, timestamp, sessionID, …}` lines — `step_start`,
 * `text` (a whole text part, once finished), `reasoning`, `tool_use` (a tool part once completed
 * or failed, its input and output in `part.state`), `step_finish` (its `reason`, and the step's
 * `cost` in dollars and `tokens`), and `error` (`error.name`, `error.data.message`). There is no
 * final event: the run ends after the step whose reason is not `tool-calls`, so the reader sums the
 * steps and gives ralph one result when the stream ends.
 */
export function opencodeEventReader(): EventReader {
  const total = { cost: 0, input: 0, output: 0, steps: 0 };
  let lastText = '';
  let failure: string | undefined;
  return {
    read(json) {
      if (!isObject(json)) return [unknownLine(typeof json)];
      const type = str(json.type) ?? 'unknown';
      const part = obj(json.part);
      switch (type) {
        case 'text':
          lastText = str(part.text) ?? '';
          return [assistantEvent({ texts: [lastText] })];
        case 'reasoning':
          return [assistantEvent({ thinking: [str(part.text) ?? ''] })];
        case 'tool_use':
          return readTool(part);
        case 'step_finish': {
          const tokens = obj(part.tokens);
          total.cost += num(part.cost) ?? 0;
          total.input += num(tokens.input) ?? 0;
          total.output += num(tokens.output) ?? 0;
          total.steps++;
          return [{ type: 'other', name: 'step_finish' }];
        }
        case 'error': {
          const error = obj(json.error);
          failure = str(obj(error.data).message) ?? str(error.name) ?? 'error';
          return [assistantEvent({ error: failure })];
        }
        case 'step_start':
          return [{ type: 'other', name: type }];
        default:
          return [unknownLine(type)];
      }
    },
    end() {
      if (total.steps === 0 && failure === undefined) return [];
      const result = {
        isError: failure !== undefined,
        subtype: failure !== undefined ? 'error' : 'success',
        text: failure ?? lastText,
        costUsd: total.cost,
        inputTokens: total.input,
        outputTokens: total.output,
        numTurns: total.steps,
      };
      return [{ type: 'result', result }];
    },
  };
}

/** A finished tool part: the tool, its input, and its output or error. */
function readTool(part: Json): StreamEvent[] {
  const state = obj(part.state);
  const failed = state.status === 'error';
  const use = { id: str(part.callID) ?? str(part.id) ?? '', name: str(part.tool) ?? 'tool', input: state.input ?? {} };
  return toolCallEvents(use, failed, failed ? str(state.error) : str(state.output));
}
