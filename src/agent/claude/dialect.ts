import { claudeEndpoint } from './endpoint.js';
import { CLAUDE_SETUP } from './setup.js';
import { CLAUDE_STOP_HOOK } from './stop-hook.js';
import { CLAUDE_ROOT_RULE } from './root-rule.js';
import type { AgentDialect } from '../dialect.js';
import { claudeVoice } from './voice.js';
import { withHint } from '../failure-words.js';
import { readStreamEvent } from '../output/stream-events.js';
import { claudeCommand } from './command.js';
import { claudePreflight } from './preflight.js';
import { classifyAgentFailure } from './failure-words.js';
import { CLAUDE_HINTS } from './hints.js';
import { CLAUDE_PROGRAM_KEYS, CLAUDE_PROGRAM_SETTINGS } from './program-settings.js';

/** Claude Code: `claude -p … --output-format stream-json --verbose`, the stream ralph was first built on. */
export const claude: AgentDialect = {
  name: 'Claude Code',
  bin: 'claude',
  install: 'npm install -g @anthropic-ai/claude-code',
  // `claude --version` → `2.1.197 (Claude Code)`.
  versionPattern: /^\d+\.\d+\.\d+\S* \(Claude Code\)\s*$/,
  preflight: claudePreflight,
  hints: CLAUDE_HINTS,
  setup: CLAUDE_SETUP,
  stopHook: CLAUDE_STOP_HOOK,
  rootRule: CLAUDE_ROOT_RULE,
  reportsCost: true,
  command: claudeCommand,
  reader: () => ({ read: (json) => [readStreamEvent(json)], end: () => [] }),
  classifyFailure: (text) => withHint(classifyAgentFailure(text), CLAUDE_HINTS),
  voice: claudeVoice,
  stateFolders: ['.claude', '.claude.json', '.config/claude'],
  programSettings: CLAUDE_PROGRAM_SETTINGS,
  programKeys: CLAUDE_PROGRAM_KEYS,
  apiHosts: (env) => {
    const endpoint = claudeEndpoint(env);
    return 'url' in endpoint ? [endpoint.url.host || 'api.anthropic.com'] : ['api.anthropic.com'];
  },
  features: { sandbox: true },
};
