import type { ServerResponse } from 'node:http';
import { parseBody, secondsUntil, sendJson, startStandInServer, type Exchange } from './stand-in-server.js';
import type { Turn } from './turns.js';

/** What the stand-in charges per answered response, as the Responses API's usage fields say it. */
export const OPENAI_USAGE = { input_tokens: 120, output_tokens: 30 } as const;

/** The request bodies the stand-in saw last, for a test that must know what the client offered. */
export interface OpenAiStandInOptions {
  onRequest?: (body: Record<string, unknown>) => void;
}

/**
 * A stand-in for OpenAI's Responses API (`POST /v1/responses`, streamed server-sent events) on
 * 127.0.0.1, for the real Codex: each request gets the next turn of the script, as the events Codex
 * consumes (`response.created`, `response.output_item.added`/`.done` with a `message` or a
 * `function_call` to the shell tool the request offered, `response.completed` with `usage`), or the
 * turn's fault: a 429 `usage_limit_reached` body with `resets_at` (epoch seconds) and
 * `resets_in_seconds`, plus `retry-after`; a 401 `invalid_api_key`; a 503 overload; or a stream that
 * sends `response.created` and then nothing. Anything else (a model list, a WebSocket upgrade) is
 * refused. `charged` counts every response completed.
 */
export function startOpenAiStandIn(script: readonly Turn[], options: OpenAiStandInOptions = {}) {
  return startStandInServer(script, (exchange) => answer(exchange, options));
}

function answer({ req, res, body, nextTurn, charge }: Exchange, options: OpenAiStandInOptions): void {
  if (req.method !== 'POST' || !req.url?.startsWith('/v1/responses')) {
    return sendJson(res, 404, { error: { type: 'invalid_request_error', message: 'stand-in: not found' } });
  }
  const request = parseBody(body);
  options.onRequest?.(request);
  const turn = nextTurn();
  if ('fault' in turn) return fault(res, turn);
  const item = 'bash' in turn ? shellCall(request, turn.bash) : textMessage(turn.text);
  // A client that offers no shell tool the stand-in knows gets a 400 naming what it offered: the test fails saying so.
  if (item === undefined) {
    const message = `stand-in: no shell tool it knows (${SHELL_TOOLS.join(', ')}) among ${JSON.stringify(offeredTools(request))}`;
    return sendJson(res, 400, { error: { type: 'invalid_request_error', message } });
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const model = typeof request.model === 'string' ? request.model : 'gpt-stand-in';
  res.write(event('response.created', { response: response(model, 'in_progress') }));
  res.write(event('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress' } }));
  if ('text' in turn) {
    res.write(
      event('response.output_text.delta', { output_index: 0, content_index: 0, item_id: 'msg_1', delta: turn.text }),
    );
  }
  res.write(event('response.output_item.done', { output_index: 0, item }));
  const usage = {
    ...OPENAI_USAGE,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: OPENAI_USAGE.input_tokens + OPENAI_USAGE.output_tokens,
  };
  res.write(event('response.completed', { response: { ...response(model, 'completed'), output: [item], usage } }));
  res.end();
  charge(OPENAI_USAGE.input_tokens, OPENAI_USAGE.output_tokens);
}

function fault(res: ServerResponse, turn: Extract<Turn, { fault: string }>): void {
  switch (turn.fault) {
    case 'stall':
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.write(event('response.created', { response: response('gpt-stand-in', 'in_progress') }));
      return;
    case 'usage-limit': {
      const seconds = secondsUntil(turn.resetsAt);
      const error = {
        type: 'usage_limit_reached',
        message: 'The usage limit has been reached',
        plan_type: 'plus',
        resets_at: Math.floor(turn.resetsAt.getTime() / 1000),
        resets_in_seconds: seconds,
      };
      return sendJson(res, 429, { error }, { 'retry-after': String(seconds) });
    }
    case 'auth':
      return sendJson(res, 401, {
        error: {
          message:
            'Incorrect API key provided: sk-stand*****. You can find your API key at https://platform.openai.com/account/api-keys.',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_api_key',
        },
      });
    case 'overload':
      return sendJson(res, 503, {
        error: { message: 'The server is overloaded. Please try again later.', type: 'server_error', code: null },
      });
  }
}

/** Codex's shell tools, as functions, and the arguments each takes. */
const SHELL_ARGUMENTS: Readonly<Record<string, (command: string) => object>> = {
  exec_command: (command) => ({ cmd: command }),
  shell_command: (command) => ({ command }),
  shell: (command) => ({ command: ['bash', '-lc', command] }),
};
const SHELL_TOOLS = Object.keys(SHELL_ARGUMENTS);

function offeredTools(request: Record<string, unknown>): string[] {
  const tools: unknown[] = Array.isArray(request.tools) ? request.tools : [];
  return tools.map((tool) => (tool as { name?: unknown }).name).filter((name) => typeof name === 'string');
}

/** A call to a shell tool the request offered, in its own argument shape; none when it offered none. */
function shellCall(request: Record<string, unknown>, command: string) {
  const name = SHELL_TOOLS.find((tool) => offeredTools(request).includes(tool));
  if (name === undefined) return undefined;
  const args = JSON.stringify(SHELL_ARGUMENTS[name]?.(command));
  return { type: 'function_call', id: 'fc_1', call_id: 'call_1', name, arguments: args, status: 'completed' };
}

function textMessage(text: string) {
  return {
    type: 'message',
    id: 'msg_1',
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text, annotations: [] }],
  };
}

function response(model: string, status: string) {
  return {
    id: 'resp_stand_in',
    object: 'response',
    created_at: Math.floor(Date.now() / 1000),
    model,
    status,
    output: [],
  };
}

function event(name: string, data: object): string {
  return `event: ${name}\ndata: ${JSON.stringify({ type: name, ...data })}\n\n`;
}
