import type { EventReader } from '../event-reader.js';
import { isObject, num, obj, str, type Json } from '../output/json-fields.js';
import { assistantEvent, toolCallEvents } from '../output/event-parts.js';
import { unknownLine, type StreamEvent } from '../output/stream-events.js';

/** What 0.171 prints that ralph does not need: the thread and turn opening, items still running. */
const KNOWN_UNREAD = new Set(['thread.started', 'turn.started', 'item.started', 'item.updated']);
/** Items it does not read: the plan, and the client's own notices (a transport fallback). */
const KNOWN_UNREAD_ITEMS = new Set(['todo_list', 'error']);

/** `Reconnecting... 2/5 (…)` or `Reconnecting... waiting for network (…)`: a retry notice, not a failure. */
const RECONNECTING = /^Reconnecting\.\.\.\s*(?:(\d+)\/(\d+))?/;

/**
 * `codex exec --json` (0.171): `thread.started`, `turn.started`, `item.started|updated|completed`
 * (an `item` of type agent_message, reasoning, command_execution, file_change, mcp_tool_call,
 * web_search, todo_list or error), `turn.completed` with token usage, `turn.failed`, and top-level
 * `error` lines. Items are read when completed, so each tool call counts once. Codex reports no cost.
 */
export function codexEventReader(): EventReader {
  let lastMessage = '';
  return {
    read(json) {
      if (!isObject(json)) return [unknownLine(typeof json)];
      const type = str(json.type) ?? 'unknown';
      switch (type) {
        case 'item.completed': {
          const item = obj(json.item);
          if (item.type === 'agent_message') lastMessage = str(item.text) ?? '';
          return readItem(item);
        }
        case 'turn.completed': {
          const usage = obj(json.usage);
          return [
            {
              type: 'result',
              result: {
                isError: false,
                subtype: 'success',
                text: lastMessage,
                inputTokens: num(usage.input_tokens),
                outputTokens: num(usage.output_tokens),
              },
            },
          ];
        }
        case 'turn.failed':
          return [
            { type: 'result', result: { isError: true, subtype: 'error', text: str(obj(json.error).message) ?? '' } },
          ];
        case 'error':
          return [readTopLevelError(str(json.message) ?? '')];
        default:
          return [KNOWN_UNREAD.has(type) ? { type: 'other', name: type } : unknownLine(type)];
      }
    },
    end: () => [],
  };
}

/** A top-level `error`: a reconnect notice is a retry; anything else is the client reporting a failure. */
function readTopLevelError(message: string): StreamEvent {
  const retry = RECONNECTING.exec(message);
  if (retry) {
    return {
      type: 'api_retry',
      message,
      ...(retry[1] ? { attempt: Number(retry[1]) } : {}),
      ...(retry[2] ? { maxRetries: Number(retry[2]) } : {}),
    };
  }
  return assistantEvent({ error: message });
}

/** A completed item: the agent's words, its thinking, or a tool call with its outcome. */
function readItem(item: Json): StreamEvent[] {
  const id = str(item.id) ?? '';
  switch (item.type) {
    case 'agent_message':
      return [assistantEvent({ texts: [str(item.text) ?? ''] })];
    case 'reasoning':
      return [assistantEvent({ thinking: [str(item.text) ?? ''] })];
    case 'command_execution':
      return toolCallEvents(
        { id, name: 'command', input: { command: str(item.command) ?? '' } },
        item.status === 'failed' || (num(item.exit_code) ?? 0) !== 0,
        str(item.aggregated_output),
      );
    case 'file_change':
      return toolCallEvents(
        { id, name: 'file_change', input: { changes: item.changes ?? [] } },
        item.status === 'failed',
      );
    case 'mcp_tool_call':
      return toolCallEvents(
        { id, name: `${str(item.server) ?? 'mcp'}.${str(item.tool) ?? 'tool'}`, input: item.arguments ?? {} },
        item.status === 'failed',
        str(obj(item.error).message),
      );
    case 'web_search':
      return toolCallEvents({ id, name: 'web_search', input: { query: str(item.query) ?? '' } }, false);
    default: {
      const name = `item/${str(item.type) ?? '?'}`;
      return [KNOWN_UNREAD_ITEMS.has(str(item.type) ?? '') ? { type: 'other', name } : unknownLine(name)];
    }
  }
}
