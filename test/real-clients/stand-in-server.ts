import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Turn } from './turns.js';

/** Requests larger than this are refused: a client's whole conversation fits well within it. */
const MAX_BODY_BYTES = 8 * 1024 * 1024;

/** What one stand-in charged: the model calls it answered in full, their tokens, and their cost at list price. */
export interface Charged {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
}

/** One request as a protocol's stand-in sees it, with the next turn of the script on demand. */
export interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  body: string;
  /** The next turn of the script (the last one repeating). */
  nextTurn: () => Turn;
  /** Records a model call answered in full, with its tokens and their cost. */
  charge: (inputTokens: number, outputTokens: number, costUsd?: number) => void;
}

/**
 * A loopback HTTP server for one protocol's stand-in: it listens on 127.0.0.1 only (never beyond),
 * caps request bodies, logs `METHOD /path` of every request, deals out the script's turns and
 * keeps the tally of what it charged. `close` ends every open connection too (a stalled stream).
 */
export async function startStandInServer(script: readonly Turn[], answer: (exchange: Exchange) => void) {
  if (script.length === 0) throw new Error('a stand-in needs at least one turn');
  const requests: string[] = [];
  const charged: Charged = { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0 };
  let next = 0;
  const nextTurn = () => script[Math.min(next++, script.length - 1)] as Turn;
  const charge = (inputTokens: number, outputTokens: number, costUsd = 0) => {
    charged.calls += 1;
    charged.costUsd += costUsd;
    charged.inputTokens += inputTokens;
    charged.outputTokens += outputTokens;
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => {
      requests.push(`${req.method} ${req.url}`);
      if (size > MAX_BODY_BYTES) return sendJson(res, 413, { error: { message: 'stand-in: request too large' } });
      answer({ req, res, body: Buffer.concat(chunks).toString('utf8'), nextTurn, charge });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    charged,
    /** How many turns the script has dealt out so far. */
    turnsPlayed: () => next,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type StandIn = Awaited<ReturnType<typeof startStandInServer>>;

/** One request as a stand-in saw it: method and path, and the body (parsed when JSON). */
export interface SeenRequest {
  line: string;
  body: unknown;
}

/** How a protocol's stand-in answers one request with the body parsed; `next` hands out the next turn. */
export type Answer = (req: IncomingMessage, res: ServerResponse, body: unknown, next: () => Turn) => void;

/** A stand-in that keeps each request's body too (Gemini CLI's, OpenCode's and Amp's tests read them). */
export interface SeeingStandIn {
  url: string;
  requests: SeenRequest[];
  /** How many turns of the script were played. */
  played: () => number;
  close: () => Promise<void>;
}

/** startStandInServer, for an `answer` that reads the parsed body, with every request's body kept. */
export async function startStandIn(script: readonly Turn[], answer: Answer): Promise<SeeingStandIn> {
  const requests: SeenRequest[] = [];
  const server = await startStandInServer(script, ({ req, res, body, nextTurn }) => {
    const parsed = parseJson(body);
    requests.push({ line: `${req.method} ${req.url}`, body: parsed });
    answer(req, res, parsed, nextTurn);
  });
  return { url: server.url, requests, played: server.turnsPlayed, close: server.close };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export function sendJson(res: ServerResponse, status: number, body: object, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** Parses a request body as JSON, `{}` when it is none. */
export function parseBody(body: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(body || '{}');
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Seconds from now until `at`, at least 1 (a `retry-after` header's value). */
export function secondsUntil(at: Date): number {
  return Math.max(1, Math.ceil((at.getTime() - Date.now()) / 1000));
}
