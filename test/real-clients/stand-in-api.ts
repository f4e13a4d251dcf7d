import type { ServerResponse } from 'node:http';
import { parseBody, secondsUntil, sendJson, startStandInServer, type Exchange } from './stand-in-server.js';
import type { Turn } from './turns.js';

export type { Turn } from './turns.js';
export type { Charged, StandIn } from './stand-in-server.js';

/** What the stand-in charges per answered request, as Anthropic's usage fields say it. */
export const USAGE = { input_tokens: 100, output_tokens: 20 } as const;

/**
 * List prices in US dollars per million tokens, as Claude Code prices the models it asks for (it
 * reports `total_cost_usd` from its own table; the API sends tokens only). A model missing here is
 * charged NaN, so a test comparing costs fails naming it: a client that changed its default model.
 */
const LIST_PRICE_PER_MTOK: Readonly<Record<string, { input: number; output: number }>> = {
  'claude-opus-4-8': { input: 5, output: 25 },
};

/** What `USAGE` costs on `model` at its list price (NaN for a model not in the table). */
export function listPrice(model: string): number {
  const price = LIST_PRICE_PER_MTOK[model.replace(/\[\w+\]$/, '')];
  if (!price) return Number.NaN;
  return (USAGE.input_tokens * price.input + USAGE.output_tokens * price.output) / 1e6;
}

/**
 * Anthropic's error bodies (https://docs.anthropic.com/en/api/errors): `{type:"error", error:{type,
 * message}}`, with the status each error type carries.
 */
const ERRORS = {
  auth: { status: 401, type: 'authentication_error', message: 'invalid x-api-key' },
  overload: { status: 529, type: 'overloaded_error', message: 'Overloaded' },
  'usage-limit': {
    status: 429,
    type: 'rate_limit_error',
    message: "This request would exceed your account's rate limit. Please try again later.",
  },
} as const;

/**
 * A stand-in for Anthropic's Messages API on 127.0.0.1, for the real Claude Code: each streamed
 * request gets the next turn of the script (the last one repeating), in the documented event
 * shapes (message_start, content_block_*, message_delta, message_stop), or the turn's fault: a 429
 * with the unified rate-limit headers Claude Code reads (`anthropic-ratelimit-unified-status`,
 * `-reset` in epoch seconds, `-representative-claim`) and `retry-after`; a 401; a 529; or a stream
 * that sends its headers and `message_start`, then nothing, and never ends. A non-streamed request
 * (a probe) gets a short text. `charged` counts every answer that carried usage, and its cost.
 */
export function startAnthropicStandIn(script: readonly Turn[]) {
  return startStandInServer(script, answer);
}

function answer({ req, res, body, nextTurn, charge }: Exchange): void {
  if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages')) {
    return sendJson(res, 404, { type: 'error', error: { type: 'not_found_error', message: 'stand-in: not found' } });
  }
  const request = parseBody(body);
  const model = typeof request.model === 'string' ? request.model : 'claude-stand-in';
  if (request.stream !== true) {
    charge(USAGE.input_tokens, USAGE.output_tokens, listPrice(model));
    return sendJson(res, 200, {
      ...message(model),
      content: [{ type: 'text', text: 'ok' }],
      stop_reason: 'end_turn',
    });
  }
  const turn = nextTurn();
  if ('fault' in turn) return fault(res, turn, model);
  stream(res, model, turn);
  charge(USAGE.input_tokens, USAGE.output_tokens, listPrice(model));
}

function fault(res: ServerResponse, turn: Extract<Turn, { fault: string }>, model: string): void {
  if (turn.fault === 'stall') {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    // Headers and the first event reach the client; then nothing, until the stand-in is closed.
    res.write(event('message_start', { message: { ...message(model), content: [], stop_reason: null } }));
    return;
  }
  const error = ERRORS[turn.fault];
  const headers: Record<string, string> = { 'request-id': 'req_stand_in' };
  if (turn.fault === 'usage-limit') {
    const resetSeconds = Math.floor(turn.resetsAt.getTime() / 1000);
    Object.assign(headers, {
      'retry-after': String(secondsUntil(turn.resetsAt)),
      'anthropic-ratelimit-unified-status': 'rejected',
      'anthropic-ratelimit-unified-reset': String(resetSeconds),
      'anthropic-ratelimit-unified-representative-claim': 'five_hour',
      'anthropic-ratelimit-unified-5h-status': 'rejected',
      'anthropic-ratelimit-unified-5h-reset': String(resetSeconds),
      'anthropic-ratelimit-unified-5h-utilization': '1.0',
      'anthropic-ratelimit-unified-fallback': 'unavailable',
      'anthropic-ratelimit-unified-overage-status': 'rejected',
      'anthropic-ratelimit-unified-overage-disabled-reason': 'org_level_disabled',
    });
  }
  const { status, type, message: text } = error;
  sendJson(res, status, { type: 'error', error: { type, message: text }, request_id: 'req_stand_in' }, headers);
}

function stream(res: ServerResponse, model: string, turn: { bash: string } | { text: string }): void {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.write(event('message_start', { message: { ...message(model), content: [], stop_reason: null } }));
  if ('bash' in turn) {
    res.write(
      event('content_block_start', {
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_01', name: 'Bash', input: {} },
      }),
    );
    const input = JSON.stringify({ command: turn.bash, description: 'work on the story' });
    res.write(event('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: input } }));
  } else {
    res.write(event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }));
    res.write(event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: turn.text } }));
  }
  res.write(event('content_block_stop', { index: 0 }));
  const stop = 'bash' in turn ? 'tool_use' : 'end_turn';
  res.write(
    event('message_delta', {
      delta: { stop_reason: stop, stop_sequence: null },
      usage: { output_tokens: USAGE.output_tokens },
    }),
  );
  res.write(event('message_stop', {}));
  res.end();
}

function event(name: string, data: object): string {
  return `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
}

function message(model: string) {
  return { id: 'msg_stand_in', type: 'message', role: 'assistant', model, stop_sequence: null, usage: USAGE };
}
