import { line, write, type ScriptedVoice } from '../voice/voice.js';

/** `codex exec --json … <prompt>`: items as they complete, then `turn.completed`, or `turn.failed`. */
export const codexVoice: ScriptedVoice = {
  recognises: (argv) => argv[0] === 'exec',
  prompt: (argv) => (argv.at(-1) === '-' ? undefined : argv.at(-1)),
  streams: (argv) => argv.includes('--json'),
  // `codex login status`: what RALPH_AGENT_LOGIN_STATUS says, "Not logged in" (exit 1) by default.
  answer(argv, env) {
    if (argv[0] !== 'login' || argv[1] !== 'status') return undefined;
    const status = env.RALPH_AGENT_LOGIN_STATUS ?? 'Not logged in';
    return { stdout: `${status}\n`, exitCode: /^Logged in/.test(status) ? 0 : 1 };
  },
  emitter() {
    let items = 0;
    let lastText = '';
    const item = (fields: Record<string, unknown>) =>
      line({ type: 'item.completed', item: { id: `item_${items++}`, ...fields } });
    return {
      init: async () => {
        await line({ type: 'thread.started', thread_id: 'scripted' });
        await line({ type: 'turn.started' });
      },
      say(text) {
        lastText = typeof text === 'string' ? text : text.join('');
        return item({ type: 'agent_message', text: lastText });
      },
      tool: (name, input, result, isError) =>
        item({
          type: 'command_execution',
          command: `${name} ${JSON.stringify(input)}`,
          aggregated_output: result,
          exit_code: isError ? 1 : 0,
          status: isError ? 'failed' : 'completed',
        }),
      raw: (text) => write(`${text}\n`),
      result: (isError, fields) =>
        isError
          ? line({
              type: 'turn.failed',
              error: { message: typeof fields.result === 'string' ? fields.result : lastText },
            })
          : line({ type: 'turn.completed', usage: { input_tokens: 100, cached_input_tokens: 0, output_tokens: 20 } }),
    };
  },
};
