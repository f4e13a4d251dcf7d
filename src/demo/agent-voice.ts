import { setTimeout as sleep } from 'node:timers/promises';

/** How the scripted agent speaks: what it says, the tools it calls, its final result. */
export interface Emitter {
  init(): Promise<void>;
  /** Text the agent says; a list is written piece by piece, `pauseMs` apart. */
  say(text: string | string[]): Promise<void>;
  tool(name: string, input: unknown, result: string, isError: boolean): Promise<void>;
  /** One raw stdout line. */
  raw(text: string): Promise<void>;
  result(isError: boolean, fields: Record<string, unknown>): Promise<void>;
}

/** Plain text, or stream-json events like the real client's. */
export function createEmitter(streamJson: boolean, pauseMs: number): Emitter {
  return streamJson ? streamJsonEmitter(pauseMs) : textEmitter(pauseMs);
}

/** `claude -p` without an output format: the text as it comes, a tool call as one line. */
function textEmitter(pauseMs: number): Emitter {
  return {
    init: () => Promise.resolve(),
    async say(text) {
      for (const piece of typeof text === 'string' ? [text] : text) {
        await write(piece);
        if (pauseMs) await sleep(pauseMs);
      }
    },
    tool: (name, input) => write(`[${name}] ${JSON.stringify(input)}\n`),
    raw: (text) => write(`${text}\n`),
    result: () => Promise.resolve(),
  };
}

/** `--output-format stream-json`: init, assistant and user events, and a result that repeats the last text. */
function streamJsonEmitter(pauseMs: number): Emitter {
  let lastText = '';
  let turns = 0;
  const line = (event: unknown) => write(`${JSON.stringify(event)}\n`);
  const assistant = (content: unknown[]) => ({
    type: 'assistant',
    message: { role: 'assistant', model: 'scripted', content },
    session_id: 'scripted',
  });
  return {
    init: () =>
      line({
        type: 'system',
        subtype: 'init',
        session_id: 'scripted',
        model: 'scripted',
        tools: ['Bash', 'Edit', 'Read'],
        claude_code_version: 'scripted',
      }),
    async say(text) {
      lastText = typeof text === 'string' ? text : text.join('');
      turns++;
      // One event, its line written in two halves: the reader must join lines split across writes.
      const json = `${JSON.stringify(assistant([{ type: 'text', text: lastText }]))}\n`;
      const half = Math.floor(json.length / 2);
      await write(json.slice(0, half));
      if (pauseMs) await sleep(pauseMs);
      await write(json.slice(half));
    },
    async tool(name, input, result, isError) {
      turns++;
      const id = `toolu_${turns}_${Math.random().toString(36).slice(2, 8)}`;
      await line(assistant([{ type: 'tool_use', id, name, input }]));
      const content = [{ type: 'tool_result', tool_use_id: id, content: result, is_error: isError }];
      await line({ type: 'user', message: { role: 'user', content }, session_id: 'scripted' });
    },
    raw: (text) => write(`${text}\n`),
    result: (isError, fields) =>
      line({
        type: 'result',
        subtype: 'success',
        is_error: isError,
        result: lastText,
        session_id: 'scripted',
        num_turns: turns,
        duration_ms: 1,
        total_cost_usd: 0.01,
        usage: { input_tokens: 100, output_tokens: 20 },
        ...fields,
      }),
  };
}

function write(text: string): Promise<void> {
  return new Promise((resolve) => process.stdout.write(text, () => resolve()));
}
