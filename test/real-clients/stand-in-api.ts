import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One model turn as the stand-in plays it: a shell tool call, or a final text. */
export type Turn = { bash: string } | { text: string };

/** What the stand-in charged, per request, as Anthropic's usage fields say it. */
export const USAGE = { input_tokens: 100, output_tokens: 20 } as const;

/** Requests larger than this are refused: a client's whole conversation fits well within it. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

/**
 * A stand-in for Anthropic's Messages API on 127.0.0.1, for the real Claude Code: each streamed
 * request gets the next turn of the script (the last one repeating), in the documented event
 * shapes (message_start, content_block_*, message_delta, message_stop). A request that carries a
 * tool result moves the script on; anything else (a probe, a non-streamed call) gets a short text.
 */
export async function startAnthropicStandIn(script: readonly Turn[]) {
  const requests: string[] = [];
  let next = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      requests.push(`${req.method} ${req.url}`);
      if (size > MAX_BODY_BYTES) return refuse(res, 413);
      answer(req, res, Buffer.concat(chunks).toString('utf8'), () => script[Math.min(next++, script.length - 1)]);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function answer(req: IncomingMessage, res: ServerResponse, body: string, turn: () => Turn | undefined): void {
  if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages')) return refuse(res, 404);
  const request = JSON.parse(body || '{}') as { model?: string; stream?: boolean };
  if (!request.stream) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ ...message(request.model), content: [{ type: 'text', text: 'ok' }], stop_reason: 'end_turn' }),
    );
    return;
  }
  const played = turn() ?? { text: 'nothing more' };
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const send = (event: string, data: object) =>
    res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
  send('message_start', { message: { ...message(request.model), content: [], stop_reason: null } });
  if ('bash' in played) {
    send('content_block_start', {
      index: 0,
      content_block: { type: 'tool_use', id: 'toolu_01', name: 'Bash', input: {} },
    });
    const input = JSON.stringify({ command: played.bash, description: 'work on the story' });
    send('content_block_delta', { index: 0, delta: { type: 'input_json_delta', partial_json: input } });
  } else {
    send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } });
    send('content_block_delta', { index: 0, delta: { type: 'text_delta', text: played.text } });
  }
  send('content_block_stop', { index: 0 });
  const stop = 'bash' in played ? 'tool_use' : 'end_turn';
  send('message_delta', {
    delta: { stop_reason: stop, stop_sequence: null },
    usage: { output_tokens: USAGE.output_tokens },
  });
  send('message_stop', {});
  res.end();
}

function message(model = 'claude-stand-in') {
  return { id: 'msg_stand_in', type: 'message', role: 'assistant', model, stop_sequence: null, usage: USAGE };
}

function refuse(res: ServerResponse, status: number): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ type: 'error', error: { type: 'not_found_error', message: `stand-in: ${status}` } }));
}
