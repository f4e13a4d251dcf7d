import { hostOf } from '../service-endpoint.js';
import { versionBy } from '../client-setup.js';
import { switchesFor, withPrompt } from '../agent-command.js';
import { ampVoice } from './voice.js';
import type { AgentDialect } from '../dialect.js';
import { networkLine, recogniseFailure, withHint, type FailureHints } from '../failure-words.js';
import { readStreamEvent } from '../output/stream-events.js';
import { ampPreflight } from './preflight.js';

const HINTS: FailureHints = {
  auth: 'log Amp in (set AMP_API_KEY, or run `amp login`), then run again',
  setup: 'Amp cannot run as configured: check agent.args',
  network: 'Amp cannot reach its server. Check the network (behind a proxy set HTTPS_PROXY), then run again',
  credits: 'add credits to your Amp account, or choose a mode your plan covers (agent.args in ralph/config.json)',
};

const AMP_SWITCHES = { stream: ['--stream-json'], skipPermissions: ['--dangerously-allow-all'], model: '--mode' };

/**
 * Sourcegraph's Amp: `amp -x <prompt> [--stream-json] [--dangerously-allow-all] [--mode MODE]`. Its
 * stream is Claude Code's format, so Claude's reader reads it; it reports tokens, not cost. It has
 * models by mode (low, medium, high…), so `--model` names the mode. Without a key it prints a login
 * prompt on stdout and waits for a pasted code, even with stdin at end of file.
 */
export const amp: AgentDialect = {
  name: 'Amp',
  bin: 'amp',
  install: 'npm install -g @sourcegraph/amp',
  versionPattern: /\(released \d{4}-/,
  preflight: ampPreflight,
  hints: HINTS,
  setup: {
    package: '@sourcegraph/amp',
    // The newest build that installs from npm here (`@ampcode/cli`'s platform package is missing); no engines.
    defaultVersion: '0.0.1790142911-g7618fb',
    node: 20,
    versionIn: versionBy(/^(\d+\.\d+\.\d+\S*) \(released \d{4}-/m),
    login: 'set AMP_API_KEY (or run `amp login`)',
    key: { variable: 'AMP_API_KEY', secret: 'AMP_API_KEY' },
  },
  reportsCost: false,
  command: (bin, request) =>
    withPrompt(bin, request.prompt, (prompt) => [
      '-x',
      ...(prompt === undefined ? [] : [prompt]),
      ...switchesFor(request, AMP_SWITCHES),
      ...request.args,
    ]),

  reader: () => ({ read: (json) => [readStreamEvent(json)], end: () => [] }),
  classifyFailure: (text) =>
    withHint(
      recogniseFailure(text, {
        setup: [],
        network: networkLine([/\bCouldn't connect to the Amp server\b/i]),
        // `Invalid or missing API key. Run 'amp login' to authenticate.`: its server's 401 (seen with 0.0.1790142911).
        auth: [/\bNo API key found\b/i, /\bpaste your code here\b/i, /\bInvalid (?:or missing )?API key\b/i],
      }),
      HINTS,
    ),
  voice: ampVoice,
  stateFolders: ['.config/amp', '.local/share/amp', '.cache/amp'],
  // settings.json: amp.mcpServers, the commands it may run unasked; plugins and commands are programs.
  programSettings: ['settings.json', 'settings.jsonc', 'plugins', 'commands', 'tools', 'AGENTS.md'].map(
    (name) => `.config/amp/${name}`,
  ),
  apiHosts: (env) => [hostOf(env.AMP_URL) ?? 'ampcode.com'],
  features: { sandbox: false },
};
