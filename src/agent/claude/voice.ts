import { setTimeout as sleep } from 'node:timers/promises';
import { line, valueAfter, write, type Emitter, type ScriptedVoice } from '../voice/voice.js';

/** `claude -p <prompt> --output-format stream-json`: init, assistant and user events, a result with the last text. */
export const claudeVoice: ScriptedVoice = {
  recognises: () => true,
  prompt: (argv) => valueAfter(argv, '-p'),
  streams: (argv) => argv.includes('stream-json'),
  emitter: (pauseMs) => claudeStreamEmitter(pauseMs),
  // `claude auth status`: what RALPH_AGENT_AUTH_STATUS says, logged out (exit 1) by default.
  answer(argv, env) {
    if (argv[0] !== 'auth' || argv[1] !== 'status') return undefined;
    const status = env.RALPH_AGENT_AUTH_STATUS ?? '{"loggedIn": false}';
    return { stdout: `${status}\n`, exitCode: status.includes('"loggedIn": true') ? 0 : 1 };
  },
};

/** Claude Code's stream-json, which Amp speaks too. */
export function claudeStreamEmitter(pauseMs: number): Emitter {
  let lastText = '';
  let turns = 0;
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
