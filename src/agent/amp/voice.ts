import { claudeStreamEmitter } from '../claude/voice.js';
import { valueAfter, type ScriptedVoice } from '../voice/voice.js';

/** `amp -x <prompt> --stream-json`: Claude Code's stream, with tokens and no cost. */
export const ampVoice: ScriptedVoice = {
  recognises: (argv) => argv.includes('-x'),
  prompt: (argv) => valueAfter(argv, '-x'),
  streams: (argv) => argv.includes('--stream-json'),
  emitter(pauseMs) {
    const stream = claudeStreamEmitter(pauseMs);
    return { ...stream, result: (isError, fields) => stream.result(isError, { total_cost_usd: undefined, ...fields }) };
  },
};
