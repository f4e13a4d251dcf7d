import { hostOf } from '../service-endpoint.js';
import { versionBy } from '../client-setup.js';
import { switchesFor, withPrompt } from '../agent-command.js';
import { codexVoice } from './voice.js';
import type { AgentDialect } from '../dialect.js';
import { codexPreflight } from './preflight.js';
import { networkLine, recogniseFailure, withHint, type FailureHints } from '../failure-words.js';
import { codexEventReader } from './read-events.js';

const HINTS: FailureHints = {
  auth: 'log Codex in (`codex login`, or set OPENAI_API_KEY and run `codex login --with-api-key`), then run again',
  setup: 'this Codex does not take the arguments ralph gives it: check `codex exec --help` and agent.args',
  network:
    'Codex cannot reach the OpenAI API, and it retries forever without a network. Check the network (behind a proxy ' +
    'set HTTPS_PROXY), then run again',
  credits:
    'add credits to the ChatGPT or OpenAI account Codex is logged in with, or choose a model your plan covers ' +
    '(agent.args in ralph/config.json)',
};

const CODEX_SWITCHES = {
  stream: ['--json'],
  skipPermissions: ['--dangerously-bypass-approvals-and-sandbox'],
  model: '--model',
};

/**
 * OpenAI's Codex CLI (0.171): `codex exec [--json] [--dangerously-bypass-approvals-and-sandbox]
 * [-m MODEL] <prompt>`. `--full-auto` is gone (exit 2). A prompt too large for argv is `-`, read
 * from stdin; otherwise stdin is closed, since Codex waits on an open pipe.
 */
export const codex: AgentDialect = {
  name: 'Codex',
  bin: 'codex',
  install: 'npm install -g @openai/codex',
  versionPattern: /^codex-cli \d/m,
  preflight: codexPreflight,
  hints: HINTS,
  setup: {
    package: '@openai/codex',
    // `npm view @openai/codex@0.171.0 engines`: node >=16; ralph itself needs 20.
    defaultVersion: '0.171.0',
    node: 20,
    versionIn: versionBy(/^codex-cli (\d+\.\d+\.\d+\S*)/m),
    login: 'run `codex login` (or set OPENAI_API_KEY and run `codex login --with-api-key`)',
    // `codex exec` reads its key from CODEX_API_KEY (developers.openai.com/codex/noninteractive); the
    // secret keeps the name OpenAI gives the key.
    key: { variable: 'CODEX_API_KEY', secret: 'OPENAI_API_KEY' },
  },
  reportsCost: false,
  command: (bin, request) =>
    withPrompt(bin, request.prompt, (prompt) => [
      'exec',
      ...switchesFor(request, CODEX_SWITCHES),
      ...request.args,
      prompt ?? '-',
    ]),

  reader: codexEventReader,
  classifyFailure: (text) =>
    withHint(
      recogniseFailure(text, {
        setup: [/\bunexpected argument\b/],
        network: networkLine([/\bfailed to lookup address information\b/i, /\berror sending request\b/i]),
        auth: [/\bNot logged in\b/i, /\b401 Unauthorized\b/i, /\binvalid_api_key\b/, /\bIncorrect API key\b/i],
      }),
      HINTS,
    ),
  voice: codexVoice,
  stateFolders: ['.codex'],
  // config.toml: its mcp_servers, its notify program, its shell's environment; the rest: instructions.
  programSettings: ['.codex/config.toml', '.codex/hooks.json', '.codex/prompts', '.codex/skills', '.codex/AGENTS.md'],
  apiHosts: (env) => [hostOf(env.OPENAI_BASE_URL) ?? 'api.openai.com', 'chatgpt.com', 'auth.openai.com'],
  features: { sandbox: false },
};
