import type { StreamEvent, ToolResult, ToolUse } from './stream-events.js';
import { firstLine, truncate } from './summary-text.js';

/** ralph's assistant event from the parts a client reported; what it did not report is empty. */
export function assistantEvent(parts: {
  texts?: string[];
  thinking?: string[];
  toolUses?: ToolUse[];
  /** The client reporting a failure in the assistant's place (Claude's synthetic message, a Codex error line). */
  error?: string;
}): StreamEvent {
  return {
    type: 'assistant',
    texts: parts.texts ?? [],
    toolUses: parts.toolUses ?? [],
    thinking: parts.thinking ?? [],
    ...(parts.error !== undefined ? { error: parts.error } : {}),
  };
}

/**
 * One tool call as the loop hears it from every agent: the call, then its result. Clients that
 * report a call only once it finished (Codex, OpenCode) give both at once.
 */
export function toolCallEvents(use: ToolUse, isError: boolean, output = ''): StreamEvent[] {
  return [assistantEvent({ toolUses: [use] }), toolResultEvent(use.id, isError, output)];
}

/** A tool's outcome: the first line of what it returned, at most 200 characters. */
export function toolResultEvent(toolUseId: string, isError: boolean, output = ''): StreamEvent {
  const result: ToolResult = { toolUseId, isError, preview: truncate(firstLine(output), 200) };
  return { type: 'tool_results', results: [result] };
}
