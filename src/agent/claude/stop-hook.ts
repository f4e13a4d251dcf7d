import type { StopHook } from '../stop-hook.js';
import { mergeClaudeSettings, NPX_STOP_HOOK_COMMAND, registeredStopHook } from './stop-hook-settings.js';

/** Claude Code's Stop hook: registered in `.claude/settings.json`, read from there and the local settings. */
export const CLAUDE_STOP_HOOK: StopHook = {
  settingsPath: '.claude/settings.json',
  readFrom: ['.claude/settings.json', '.claude/settings.local.json'],
  merge: mergeClaudeSettings,
  registered: registeredStopHook,
  npxCommand: NPX_STOP_HOOK_COMMAND,
};
