import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Turn } from './turns.js';

/** Requests larger than this are refused: a client's whole conversation fits well within it. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** One request as the stand-in saw it: method and path, and the body (parsed when JSON). */
export interface SeenRequest {
  line: string;
  body: unknown;
}

/** How a protocol's stand-in answers one request; `next` hands out the script's next turn. */
export type Answer = (req: IncomingMessage, res: ServerResponse, body: unknown, next: () => Turn) => void;

/** A running stand-in: its base URL, the requests it saw, and how to stop it (open streams cut). */
export interface StandIn {
  url: string;
  requests: SeenRequest[];
  /** How many turns of the script were played. */
  played: () => number;
  close: () => Promise<void>;
}

/**
 * An HTTP server on 127.0.0.1 only (an ephemeral port) that plays a script of turns through a
 * protocol's `answer`: each model request the protocol counts takes the next turn, the last one
 * repeating. Closing it cuts any stream left open (a stalled one).
 */
export async function startStandIn(script: readonly Turn[], answer: Answer): Promise<StandIn> {
  const requests: SeenRequest[] = [];
  let next = 0;
  const take = (): Turn => script[Math.min(next++, script.length - 1)] ?? { text: 'nothing more' };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const body = parsed(text);
      requests.push({ line: `${req.method} ${req.url}`, body });
      if (size > MAX_BODY_BYTES) {
        res.writeHead(413, { 'content-type': 'application/json' });
        res.end('{"error":"stand-in: request too large"}');
        return;
      }
      answer(req, res, body, take);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    played: () => next,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Seconds from now until `at`, at least 1. */
export function secondsUntil(at: Date): number {
  return Math.max(1, Math.ceil((at.getTime() - Date.now()) / 1000));
}
