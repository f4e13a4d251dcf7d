import { setTimeout as sleep } from 'node:timers/promises';
import { line, valueAfter, write, type ScriptedVoice } from '../voice/voice.js';

/** `gemini -p <prompt> --output-format stream-json`: the assistant's words in deltas, a `result` without text. */
export const geminiVoice: ScriptedVoice = {
  recognises: (argv) => argv.includes('--skip-trust'),
  prompt: (argv) => (argv.includes('Follow the instructions above.') ? undefined : valueAfter(argv, '-p')),
  streams: (argv) => argv.includes('stream-json'),
  emitter(pauseMs) {
    let tools = 0;
    const at = () => new Date().toISOString();
    return {
      init: () => line({ type: 'init', timestamp: at(), session_id: 'scripted', model: 'scripted' }),
      async say(text) {
        const whole = typeof text === 'string' ? text : text.join('');
        // Three deltas, so a promise tag is cut between chunks as the real client cuts it.
        const third = Math.ceil(whole.length / 3);
        for (let start = 0; start < whole.length; start += third) {
          await line({
            type: 'message',
            timestamp: at(),
            role: 'assistant',
            content: whole.slice(start, start + third),
            delta: true,
          });
          if (pauseMs) await sleep(pauseMs);
        }
      },
      async tool(name, input, result, isError) {
        const id = `${name}-${++tools}`;
        await line({ type: 'tool_use', timestamp: at(), tool_name: name, tool_id: id, parameters: input });
        await line({
          type: 'tool_result',
          timestamp: at(),
          tool_id: id,
          status: isError ? 'error' : 'success',
          output: result,
          ...(isError ? { error: { type: 'TOOL_EXECUTION_ERROR', message: result } } : {}),
        });
      },
      raw: (text) => write(`${text}\n`),
      result: (isError, fields) =>
        line({
          type: 'result',
          timestamp: at(),
          status: isError ? 'error' : 'success',
          ...(isError
            ? { error: { type: 'Error', message: typeof fields.result === 'string' ? fields.result : 'failed' } }
            : {}),
          stats: {
            total_tokens: 120,
            input_tokens: 100,
            output_tokens: 20,
            cached: 0,
            input: 100,
            duration_ms: 1,
            tool_calls: tools,
          },
        }),
    };
  },
};
