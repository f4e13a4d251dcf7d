import type { StopHook } from '../stop-hook.js';
import { parseHookInput, readHookStdin } from './stop-hook-input.js';
import { mergeClaudeSettings, NPX_STOP_HOOK_COMMAND, registeredStopHook } from './stop-hook-settings.js';

/** Claude Code's Stop hook: registered in `.claude/settings.json`, read from there and the local settings. */
export const CLAUDE_STOP_HOOK: StopHook = {
  settingsPath: '.claude/settings.json',
  readFrom: ['.claude/settings.json', '.claude/settings.local.json'],
  merge: mergeClaudeSettings,
  registered: registeredStopHook,
  npxCommand: NPX_STOP_HOOK_COMMAND,
  readInput: async (stdin, timeoutMs) => {
    const read = await readHookStdin(stdin, timeoutMs);
    return read.problem ? { ok: false, problem: read.problem } : parseHookInput(read.text);
  },
  projectDir: (env) => env.CLAUDE_PROJECT_DIR || undefined,
};
