import { unreachable } from '../../loop/termination.js';
import { firstLine, groupThousands, truncate } from './summary-text.js';
import type { ResultEvent, StreamEvent, ToolUse } from './stream-events.js';
import { counted } from '../../domain/plural.js';

/** One line of the readable transcript; its kind decides its colour on the terminal. */
export interface RenderedLine {
  kind: 'text' | 'tool' | 'tool_error' | 'result' | 'notice' | 'detail';
  text: string;
}

const MAX_SUMMARY = 100;

/** The readable transcript lines of one event: assistant text, one line per tool call, marked tool errors. */
export function renderEvent(event: StreamEvent, verbose: boolean): RenderedLine[] {
  switch (event.type) {
    case 'assistant':
      return renderAssistant(event, verbose);
    case 'tool_results':
      return event.results.flatMap((result): RenderedLine[] => {
        if (result.isError) return [{ kind: 'tool_error', text: `✗ tool error: ${result.preview}` }];
        return verbose && result.preview ? [{ kind: 'detail', text: `  ↳ ${result.preview}` }] : [];
      });
    case 'result':
      return [{ kind: 'result', text: resultLine(event.result) }];
    case 'rate_limit':
      return renderRateLimit(event, verbose);
    case 'api_retry': {
      const delay = Math.round((event.delayMs ?? 0) / 1000);
      return [{ kind: 'notice', text: `⟳ API retry ${event.attempt ?? '?'}/${event.maxRetries ?? '?'} in ${delay}s` }];
    }
    case 'init': {
      const text = `· claude ${event.version ?? ''} · model ${event.model ?? '?'} · ${counted(event.tools ?? 0, 'tool')}`;
      return verbose ? [{ kind: 'detail', text }] : [];
    }
    case 'other':
      if (!verbose) return [];
      return [
        { kind: 'detail', text: event.unknown ? `· ${event.name} (a line ralph does not know)` : `· ${event.name}` },
      ];
    default:
      return unreachable(event);
  }
}

/** Thinking (verbose only), then what the agent said, then one line per tool call. */
function renderAssistant(event: Extract<StreamEvent, { type: 'assistant' }>, verbose: boolean): RenderedLine[] {
  return [
    ...(verbose
      ? event.thinking.map((text) => ({ kind: 'detail' as const, text: `(thinking) ${firstLine(text)}` }))
      : []),
    ...event.texts.map((text) => ({ kind: 'text' as const, text: text.replace(/\n+$/, '') })),
    ...event.toolUses.map((use) => ({
      kind: 'tool' as const,
      text: `▸ ${use.name.padEnd(5)} ${summariseInput(use)}`.trimEnd(),
    })),
  ];
}

/** `■ done` or `■ failed: why`, then the turns, cost and tokens the agent reported. */
function resultLine(result: ResultEvent): string {
  const facts = [
    result.numTurns === undefined ? undefined : `${result.numTurns} turn${result.numTurns === 1 ? '' : 's'}`,
    result.costUsd === undefined ? undefined : `$${result.costUsd.toFixed(4)}`,
    result.inputTokens === undefined
      ? undefined
      : `${groupThousands(result.inputTokens)} in / ${groupThousands(result.outputTokens ?? 0)} out tokens`,
  ].filter(Boolean);
  const head = result.isError ? `■ failed: ${firstLine(result.text) || result.subtype}` : '■ done';
  return facts.length ? `${head} · ${facts.join(' · ')}` : head;
}

/** A rejection always; the window's use whenever the agent reports it; anything else when verbose. */
function renderRateLimit(event: Extract<StreamEvent, { type: 'rate_limit' }>, verbose: boolean): RenderedLine[] {
  if (event.status === 'rejected') {
    const when = event.resetsAt ? `, resets ${new Date(event.resetsAt * 1000).toISOString()}` : '';
    return [{ kind: 'notice', text: `⚠ rate limit rejected (${event.limitType ?? 'unknown'})${when}` }];
  }
  if (event.utilization !== undefined) {
    const used = Math.round(event.utilization * 100);
    return [{ kind: 'detail', text: `· usage ${event.limitType ?? 'window'} ${used}% (${event.status})` }];
  }
  return verbose ? [{ kind: 'detail', text: `· rate limit ${event.status}` }] : [];
}

/** The one thing worth showing about a tool call's input. */
function summariseInput({ name, input }: ToolUse): string {
  const fields = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const pick = (...keys: string[]) =>
    keys.map((key) => fields[key]).find((value): value is string => typeof value === 'string');
  const chosen =
    name === 'TodoWrite' && Array.isArray(fields.todos)
      ? counted(fields.todos.length, 'todo')
      : (pick('command', 'file_path', 'notebook_path', 'path', 'pattern', 'url', 'query', 'description', 'prompt') ??
        JSON.stringify(input));
  return truncate(firstLine(chosen ?? ''), MAX_SUMMARY);
}
