import { line, write, type ScriptedVoice } from '../voice/voice.js';

/** `opencode run --format json <prompt>`: parts as they finish, each step closed by a `step_finish` with its cost. */
export const opencodeVoice: ScriptedVoice = {
  recognises: (argv) => argv[0] === 'run',
  prompt: (argv) => {
    const last = argv.at(-1);
    return argv.length > 1 && last !== undefined && !last.startsWith('-') && argv.at(-2) !== '--format'
      ? last
      : undefined;
  },
  streams: (argv) => argv.includes('--format'),
  emitter() {
    let parts = 0;
    const event = (type: string, fields: Record<string, unknown>) =>
      line({ type, timestamp: Date.now(), sessionID: 'ses_scripted', ...fields });
    const part = (fields: Record<string, unknown>) => ({
      id: `prt_${++parts}`,
      sessionID: 'ses_scripted',
      messageID: 'msg_scripted',
      ...fields,
    });
    return {
      init: () => event('step_start', { part: part({ type: 'step-start' }) }),
      say: (text) =>
        event('text', { part: part({ type: 'text', text: typeof text === 'string' ? text : text.join('') }) }),
      tool: (name, input, result, isError) =>
        event('tool_use', {
          part: part({
            type: 'tool',
            callID: `call_${parts}`,
            tool: name,
            state: isError ? { status: 'error', input, error: result } : { status: 'completed', input, output: result },
          }),
        }),
      raw: (text) => write(`${text}\n`),
      result: async (isError, fields) => {
        if (isError) {
          const message = typeof fields.result === 'string' ? fields.result : 'failed';
          await event('error', { error: { name: 'UnknownError', data: { message } } });
        }
        await event('step_finish', {
          part: part({
            type: 'step-finish',
            reason: 'stop',
            cost: 0.01,
            tokens: { input: 100, output: 20, reasoning: 0 },
          }),
        });
      },
    };
  },
};
