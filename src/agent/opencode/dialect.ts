import { versionBy } from '../client-setup.js';
import { switchesFor, withPrompt } from '../agent-command.js';
import { opencodeVoice } from './voice.js';
import type { AgentDialect } from '../dialect.js';
import { networkLine, recogniseFailure, withHint, type FailureHints } from '../failure-words.js';
import { opencodeEventReader } from './read-events.js';
import { opencodePreflight } from './preflight.js';

const HINTS: FailureHints = {
  auth: "log OpenCode in to its provider (`opencode auth login`, or that provider's key variable), then run again",
  setup: 'OpenCode cannot run as configured: check agent.args',
  network:
    'OpenCode cannot reach its provider, and every further call would wait for the same. Check the network ' +
    '(behind a proxy set HTTPS_PROXY), then run again',
  credits: "add credits at OpenCode's provider, or choose a model your plan covers (agent.args in ralph/config.json)",
};

/** The folders of its config it loads code and instructions from, singular and plural as its builds name them. */
const OPENCODE_FOLDERS = ['plugin', 'plugins', 'tool', 'tools', 'command', 'commands', 'agent', 'agents'];

const OPENCODE_SWITCHES = { stream: ['--format', 'json'], skipPermissions: ['--auto'], model: '--model' };

/**
 * OpenCode (1.18): `opencode run [--format json] [--auto] [-m provider/model] <prompt>`. It reads all
 * of stdin when stdin is not a terminal, so stdin is closed, or holds the prompt when it is too
 * large for argv. It is the one client beside Claude Code that reports cost.
 */
export const opencode: AgentDialect = {
  name: 'OpenCode',
  bin: 'opencode',
  install: 'npm install -g opencode-ai',
  versionPattern: /^\d+\.\d+\.\d+\s*$/m,
  preflight: opencodePreflight,
  hints: HINTS,
  setup: {
    package: 'opencode-ai',
    // `npm view opencode-ai@1.18.33 engines`: none; a native binary from an optional dependency.
    defaultVersion: '1.18.33',
    node: 20,
    versionIn: versionBy(/^(\d+\.\d+\.\d+\S*)\s*$/m),
    login:
      "its free default model needs none; for another provider run `opencode auth login` (or set that provider's key variable)",
    // OpenCode's own provider (Zen) reads OPENCODE_API_KEY; another provider's key is added to the step beside it.
    key: { variable: 'OPENCODE_API_KEY', secret: 'OPENCODE_API_KEY' },
  },
  reportsCost: true,
  command: (bin, request) =>
    withPrompt(bin, request.prompt, (prompt) => [
      'run',
      ...switchesFor(request, OPENCODE_SWITCHES),
      ...request.args,
      ...(prompt === undefined ? [] : [prompt]),
    ]),

  reader: opencodeEventReader,
  classifyFailure: (text) =>
    withHint(
      recogniseFailure(text, {
        setup: [],
        network: networkLine([/\bCannot connect to API\b/i]),
        auth: [
          /\bAPI key\b.*\b(?:missing|invalid)\b/i,
          /\b401\b.*\bUnauthorized\b/i,
          /\bProviderAuthError\b/,
          // An OpenAI-compatible provider's 401, as OpenCode passes its message on (seen with 1.18.33).
          /\bIncorrect API key provided\b/i,
          /\binvalid_api_key\b/,
        ],
      }),
      HINTS,
    ),
  voice: opencodeVoice,
  stateFolders: ['.local/share/opencode', '.config/opencode', '.cache/opencode', '.local/state/opencode'],
  // Its config (mcp, plugin), and the folders it loads code (plugins, tools) and instructions from.
  programSettings: ['opencode.json', 'opencode.jsonc', 'config.json', 'AGENTS.md', ...OPENCODE_FOLDERS].map(
    (name) => `.config/opencode/${name}`,
  ),
  apiHosts: () => ['opencode.ai', 'models.dev', 'api.anthropic.com', 'api.openai.com'],
  features: { sandbox: false },
};
