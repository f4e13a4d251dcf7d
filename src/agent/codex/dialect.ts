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
  features: { stopHook: false, sandbox: false },
};
