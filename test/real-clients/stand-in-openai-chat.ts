import type { ServerResponse } from 'node:http';
import type { Turn } from './turns.js';
import { secondsUntil, startStandIn, type SeeingStandIn as StandIn } from './stand-in-server.js';

/** What the stand-in charges per model request, in Chat Completions' usage fields. */
export const CHAT_USAGE = { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 } as const;

/** The stand-in model's price in OpenCode's config, in US dollars per million tokens (its `cost` unit). */
export const OPENCODE_PRICE = { input: 3, output: 15 };

/** OpenCode's config: one provider, the stand-in, and its model as the default. */
export function opencodeConfig(url: string): string {
  return JSON.stringify({
    $schema: 'https://opencode.ai/config.json',
    provider: {
      standin: {
        npm: '@ai-sdk/openai-compatible',
        name: 'Stand-in',
        options: { baseURL: `${url}/v1`, apiKey: 'stand-in-key' },
        models: { 'stand-in-model': { name: 'Stand-in model', cost: OPENCODE_PRICE } },
      },
    },
    model: 'standin/stand-in-model',
    share: 'disabled',
    autoupdate: false,
  });
}

/**
 * A stand-in for OpenAI's Chat Completions API (`POST /v1/chat/completions`) on 127.0.0.1, for the
 * real OpenCode pointed at it by a provider of its config (`@ai-sdk/openai-compatible`, `baseURL`).
 * A request that offers tools is a model turn: it plays the next turn of the script as streamed
 * `chat.completion.chunk`s (a `bash` tool call, or text) ending with a usage chunk and `[DONE]`; a
 * request without tools (OpenCode's title generator) gets a short text and takes no turn. The
 * faults are OpenAI's documented error bodies with their rate-limit headers.
 */
export function startChatStandIn(script: readonly Turn[]): Promise<StandIn> {
  return startStandIn(script, (req, res, body, next) => {
    if (req.method !== 'POST' || !(req.url ?? '').endsWith('/chat/completions'))
      return error(res, 404, { message: 'stand-in: no such route', type: 'invalid_request_error', code: null });
    const request = (typeof body === 'object' && body !== null ? body : {}) as { tools?: unknown[]; stream?: boolean };
    const turn: Turn = (request.tools?.length ?? 0) > 0 ? next() : { text: 'Stand-in title' };
    if ('fault' in turn) return fault(res, turn);
    if (!request.stream) return whole(res, turn);
    return stream(res, turn);
  });
}

function chunk(delta: object, finish: string | null, extra: object = {}) {
  return {
    id: 'chatcmpl-stand-in',
    object: 'chat.completion.chunk',
    created: Math.floor(Date.now() / 1000),
    model: 'stand-in-model',
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...extra,
  };
}

function stream(res: ServerResponse, turn: Extract<Turn, { bash: string } | { text: string }>): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const send = (data: object) => res.write(`data: ${JSON.stringify(data)}\n\n`);
  if ('bash' in turn) {
    const args = JSON.stringify({ command: turn.bash, description: 'work on the story' });
    const call = { index: 0, id: 'call_stand_in', type: 'function', function: { name: 'bash', arguments: args } };
    send(chunk({ role: 'assistant', content: null, tool_calls: [call] }, null));
    send(chunk({}, 'tool_calls'));
  } else {
    send(chunk({ role: 'assistant', content: turn.text }, null));
    send(chunk({}, 'stop'));
  }
  send({ ...chunk({}, null), choices: [], usage: CHAT_USAGE });
  res.end('data: [DONE]\n\n');
}

function whole(res: ServerResponse, turn: Extract<Turn, { bash: string } | { text: string }>): void {
  const message =
    'bash' in turn
      ? {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_stand_in',
              type: 'function',
              function: { name: 'bash', arguments: JSON.stringify({ command: turn.bash }) },
            },
          ],
        }
      : { role: 'assistant', content: turn.text };
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(
    JSON.stringify({
      id: 'chatcmpl-stand-in',
      object: 'chat.completion',
      created: Math.floor(Date.now() / 1000),
      model: 'stand-in-model',
      choices: [{ index: 0, message, finish_reason: 'bash' in turn ? 'tool_calls' : 'stop' }],
      usage: CHAT_USAGE,
    }),
  );
}

function fault(res: ServerResponse, turn: Extract<Turn, { fault: string }>): void {
  switch (turn.fault) {
    case 'usage-limit': {
      const seconds = secondsUntil(turn.resetsAt);
      return error(
        res,
        429,
        {
          message:
            'Rate limit reached for stand-in-model in organization org-stand-in on requests per day (RPD): ' +
            `Limit 100, Used 100, Requested 1. Please try again in ${seconds}s.`,
          type: 'requests',
          code: 'rate_limit_exceeded',
        },
        {
          'retry-after': String(seconds),
          'x-ratelimit-limit-requests': '100',
          'x-ratelimit-remaining-requests': '0',
          'x-ratelimit-reset-requests': `${seconds}s`,
        },
      );
    }
    case 'auth':
      return error(res, 401, {
        message:
          'Incorrect API key provided: stand-in*key. You can find your API key at https://platform.openai.com/account/api-keys.',
        type: 'invalid_request_error',
        code: 'invalid_api_key',
      });
    case 'overload':
      return error(res, 503, {
        message: 'The server is overloaded or not ready yet.',
        type: 'server_error',
        code: null,
      });
    case 'stall':
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(`data: ${JSON.stringify(chunk({ role: 'assistant', content: '' }, null))}\n\n`);
      return;
  }
}

function error(
  res: ServerResponse,
  status: number,
  body: { message: string; type: string; code: string | null },
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ error: { ...body, param: null } }));
}
