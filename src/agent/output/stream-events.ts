import { firstLine, truncate } from './summary-text.js';
import { MAX_EPOCH_MS } from '../../domain/numbers.js';

/** A tool call the agent made. */
export interface ToolUse {
  id: string;
  name: string;
  input: unknown;
}

/** What a tool returned (file contents, command output: never the agent speaking). */
export interface ToolResult {
  toolUseId: string;
  isError: boolean;
  /** The first line of the content, at most 200 characters. */
  preview: string;
}

/** The final `result` event of a run. */
export interface ResultEvent {
  isError: boolean;
  subtype: string;
  text: string;
  costUsd?: number;
  inputTokens?: number;
  outputTokens?: number;
  numTurns?: number;
  apiErrorStatus?: number;
}

/** One stream-json line, reduced to the facts ralph uses. Unknown types are kept by name only. */
export type StreamEvent =
  | { type: 'assistant'; texts: string[]; toolUses: ToolUse[]; thinking: string[]; error?: string }
  | { type: 'tool_results'; results: ToolResult[] }
  | { type: 'result'; result: ResultEvent }
  | { type: 'rate_limit'; status: string; resetsAt?: number; limitType?: string; utilization?: number }
  | { type: 'init'; model?: string; version?: string; tools?: number }
  | { type: 'api_retry'; attempt?: number; maxRetries?: number; delayMs?: number; message?: string }
  /** A line ralph does not read; `unknown` when its reader does not know it at all (counted, shown with --verbose). */
  | { type: 'other'; name: string; unknown?: true };

/** A line of a type the reader does not know: the client may be newer than ralph's reading of it. */
export function unknownLine(name: string): StreamEvent {
  return { type: 'other', name, unknown: true };
}

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const num = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;
const maybe = (value: number | undefined, keep: (value: number) => boolean): number | undefined =>
  value !== undefined && keep(value) ? value : undefined;

/** Reads a parsed stream-json line defensively: whatever the CLI version, never throws. */
export function readStreamEvent(json: unknown): StreamEvent {
  if (!isObject(json)) return unknownLine(typeof json);
  const type = str(json.type) ?? 'unknown';
  const message = isObject(json.message) ? json.message : {};
  const content = Array.isArray(message.content) ? message.content.filter(isObject) : [];
  switch (type) {
    case 'assistant':
      return {
        type: 'assistant',
        ...readAssistantContent(content),
        ...(str(json.error) ? { error: str(json.error) } : {}),
      };
    case 'user':
      return { type: 'tool_results', results: readToolResults(content) };
    case 'result':
      return { type: 'result', result: readResult(json) };
    case 'rate_limit_event':
      return readRateLimit(isObject(json.rate_limit_info) ? json.rate_limit_info : {});
    case 'system':
      return readSystem(json);
    default:
      return unknownLine(type);
  }
}

/** The tool results in a user message (its other blocks are not the agent's). */
function readToolResults(content: Json[]): ToolResult[] {
  return content
    .filter((block) => block.type === 'tool_result')
    .map((block) => ({
      toolUseId: str(block.tool_use_id) ?? '',
      isError: block.is_error === true,
      preview: previewOf(block.content),
    }));
}

/** The final `result` event: success or error, cost, tokens and turns. */
function readResult(json: Json): ResultEvent {
  const usage = isObject(json.usage) ? json.usage : {};
  return {
    isError: json.is_error === true,
    subtype: str(json.subtype) ?? '',
    text: str(json.result) ?? '',
    costUsd: num(json.total_cost_usd),
    inputTokens: num(usage.input_tokens),
    outputTokens: num(usage.output_tokens),
    numTurns: num(json.num_turns),
    apiErrorStatus: num(json.api_error_status),
  };
}

/** A `rate_limit_event`'s `rate_limit_info`: the window's status, reset time, kind and use. */
function readRateLimit(info: Json): StreamEvent {
  return {
    type: 'rate_limit',
    status: str(info.status) ?? '',
    // Shown as a date (seconds × 1000): one past what a Date holds would throw where it is rendered.
    resetsAt: maybe(num(info.resetsAt), (at) => at * 1000 <= MAX_EPOCH_MS),
    limitType: str(info.rateLimitType),
    utilization: num(info.utilization),
  };
}

/** A `system` event: the session's start, an API retry, or another kept by its subtype's name. */
function readSystem(json: Json): StreamEvent {
  if (json.subtype === 'init') {
    return {
      type: 'init',
      model: str(json.model),
      version: str(json.claude_code_version),
      tools: Array.isArray(json.tools) ? json.tools.length : undefined,
    };
  }
  if (json.subtype === 'api_retry') {
    const attempt = num(json.attempt);
    const maxRetries = num(json.max_retries);
    return {
      type: 'api_retry',
      attempt,
      maxRetries,
      delayMs: num(json.retry_delay_ms),
      // No HTTP status: the API never answered (no network, no DNS). Only that starts the stall
      // clock; a retry on a status (429, 529 overloaded) is a busy server the loop waits out.
      ...(json.error_status === null
        ? {
            message: `API retry ${attempt ?? '?'}/${maxRetries ?? '?'}: no answer from the API (${str(json.error) ?? 'unknown'})`,
          }
        : {}),
    };
  }
  return { type: 'other', name: `system/${str(json.subtype) ?? '?'}` };
}

/** An assistant message's blocks, sorted by kind in one pass (this runs for every line the agent prints). */
function readAssistantContent(content: Json[]): { texts: string[]; toolUses: ToolUse[]; thinking: string[] } {
  const texts: string[] = [];
  const toolUses: ToolUse[] = [];
  const thinking: string[] = [];
  for (const block of content) {
    if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
    else if (block.type === 'tool_use')
      toolUses.push({ id: str(block.id) ?? '', name: str(block.name) ?? 'tool', input: block.input ?? {} });
    else if (block.type === 'thinking' && typeof block.thinking === 'string') thinking.push(block.thinking);
  }
  return { texts, toolUses, thinking };
}

/** The first line of a tool result's content (a string or a list of text blocks), at most 200 characters. */
function previewOf(content: unknown): string {
  const parts = Array.isArray(content) ? content : [content];
  for (const part of parts) {
    const line = firstLine((typeof part === 'string' ? part : isObject(part) ? str(part.text) : undefined) ?? '');
    if (line !== '') return truncate(line, 200);
  }
  return '';
}
