import type { ServerResponse } from 'node:http';
import type { Turn } from './turns.js';
import { secondsUntil, startStandIn, type SeeingStandIn as StandIn } from './stand-in-server.js';

/** What the stand-in charges per model request, in Gemini's usageMetadata fields. */
export const GEMINI_USAGE = { promptTokenCount: 100, candidatesTokenCount: 20, totalTokenCount: 120 } as const;

/**
 * A stand-in for the Gemini API (generativelanguage, v1beta) on 127.0.0.1, for the real Gemini CLI
 * pointed at it by GOOGLE_GEMINI_BASE_URL: each `:streamGenerateContent?alt=sse` request plays the
 * next turn as server-sent GenerateContentResponse chunks (a `functionCall` part to the CLI's
 * `run_shell_command` tool, or text parts), with usageMetadata; the faults are the API's documented
 * error bodies (google.rpc.Status with its details). A plain `:generateContent` (the CLI's own side
 * questions: routing, "who speaks next") gets a JSON answer that hands the turn back to the user.
 */
export function startGeminiStandIn(script: readonly Turn[]): Promise<StandIn> {
  return startStandIn(script, (req, res, _body, next) => {
    const url = req.url ?? '';
    if (req.method !== 'POST' || !url.startsWith('/v1beta/models/')) return status(res, 404, 'NOT_FOUND', 'stand-in');
    if (url.includes(':streamGenerateContent')) return stream(res, next());
    if (url.includes(':generateContent')) return sideQuestion(res);
    if (url.includes(':countTokens')) return json(res, 200, { totalTokens: GEMINI_USAGE.promptTokenCount });
    return status(res, 404, 'NOT_FOUND', 'stand-in: no such method');
  });
}

function stream(res: ServerResponse, turn: Turn): void {
  if ('fault' in turn) return fault(res, turn);
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const part =
    'bash' in turn
      ? { functionCall: { name: 'run_shell_command', args: { command: turn.bash } } }
      : { text: turn.text };
  const chunk = {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: GEMINI_USAGE,
    modelVersion: 'gemini-stand-in',
  };
  res.end(`data: ${JSON.stringify(chunk)}\r\n\r\n`);
}

function fault(res: ServerResponse, turn: Extract<Turn, { fault: string }>): void {
  switch (turn.fault) {
    case 'usage-limit': {
      // A quota that is neither per minute nor per day, with RetryInfo: the CLI gives up at once
      // for a delay over 300 s and says "Suggested retry after <n>s".
      const seconds = secondsUntil(turn.resetsAt);
      return json(res, 429, {
        error: {
          code: 429,
          message: `You exceeded your current quota, please check your plan and billing details. Please retry in ${seconds}s.`,
          status: 'RESOURCE_EXHAUSTED',
          details: [
            {
              '@type': 'type.googleapis.com/google.rpc.QuotaFailure',
              violations: [
                {
                  quotaMetric: 'generativelanguage.googleapis.com/generate_content_requests',
                  quotaId: 'GenerateRequestsPerHourPerProjectPerModel',
                },
              ],
            },
            { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${seconds}s` },
          ],
        },
      });
    }
    case 'auth':
      // A key the API does not know: 400 INVALID_ARGUMENT with reason API_KEY_INVALID (not a 401).
      return json(res, 400, {
        error: {
          code: 400,
          message: 'API key not valid. Please pass a valid API key.',
          status: 'INVALID_ARGUMENT',
          details: [
            {
              '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
              reason: 'API_KEY_INVALID',
              domain: 'googleapis.com',
              metadata: { service: 'generativelanguage.googleapis.com' },
            },
          ],
        },
      });
    case 'overload':
      return status(res, 503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.');
    case 'stall':
      // Headers and nothing more: the stream stays open until the stand-in closes.
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      return;
  }
}

/** The CLI's side questions get an answer that ends the turn: the user speaks next. */
function sideQuestion(res: ServerResponse): void {
  const text = JSON.stringify({
    reasoning: 'stand-in',
    next_speaker: 'user',
    model_choice: 'pro',
    complexity_score: 10,
  });
  json(res, 200, {
    candidates: [{ content: { role: 'model', parts: [{ text }] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 0, candidatesTokenCount: 0, totalTokenCount: 0 },
  });
}

function status(res: ServerResponse, code: number, name: string, message: string): void {
  json(res, code, { error: { code, message, status: name } });
}

function json(res: ServerResponse, code: number, body: object): void {
  res.writeHead(code, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}
