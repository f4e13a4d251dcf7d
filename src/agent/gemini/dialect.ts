import { hostOf } from '../service-endpoint.js';
import { versionBy } from '../client-setup.js';
import { switchesFor, withPrompt } from '../agent-command.js';
import { geminiVoice } from './voice.js';
import type { AgentDialect } from '../dialect.js';
import { geminiPreflight } from './preflight.js';
import { networkLine, recogniseFailure, withHint, type FailureHints } from '../failure-words.js';
import { geminiEventReader } from './read-events.js';

const HINTS: FailureHints = {
  auth: 'log Gemini CLI in (set GEMINI_API_KEY, or run `gemini` once and choose a login), then run again',
  setup: 'Gemini CLI does not trust this folder: ralph passes --skip-trust; check agent.args',
  network:
    'Gemini CLI cannot reach the Gemini API, and every further call would retry for minutes. Check the network ' +
    '(behind a proxy set HTTPS_PROXY), then run again',
  credits:
    'raise the quota or billing of the Google account Gemini CLI is logged in with, or choose a model your plan ' +
    'covers (agent.args in ralph/config.json)',
};

const GEMINI_SWITCHES = { stream: ['--output-format', 'stream-json'], skipPermissions: ['--yolo'], model: '--model' };

/**
 * Google's Gemini CLI (0.61): `gemini -p <prompt> [--output-format stream-json] [--yolo]
 * --skip-trust [-m MODEL]`. Without `--skip-trust` a folder it has not been told to trust exits 55
 * and `--yolo` is downgraded. `-p` is appended to what stdin holds, so a prompt too large for argv
 * goes on stdin with a short `-p`.
 */
export const gemini: AgentDialect = {
  name: 'Gemini CLI',
  bin: 'gemini',
  install: 'npm install -g @google/gemini-cli',
  versionPattern: /^\d+\.\d+\.\d+\s*$/m,
  preflight: geminiPreflight,
  hints: HINTS,
  setup: {
    package: '@google/gemini-cli',
    // `npm view @google/gemini-cli@0.61.0 engines`: node >=20.
    defaultVersion: '0.61.0',
    node: 20,
    versionIn: versionBy(/^(\d+\.\d+\.\d+\S*)\s*$/m),
    login: 'set GEMINI_API_KEY, or run `gemini` once and choose how to log in',
    key: { variable: 'GEMINI_API_KEY', secret: 'GEMINI_API_KEY' },
  },
  reportsCost: false,
  command: (bin, request) =>
    withPrompt(bin, request.prompt, (prompt) => [
      '-p',
      prompt ?? 'Follow the instructions above.',
      ...switchesFor(request, GEMINI_SWITCHES),
      '--skip-trust',
      ...request.args,
    ]),

  reader: geminiEventReader,
  classifyFailure: (text) =>
    withHint(
      recogniseFailure(text, {
        setup: [/\bfolder is not trusted\b/i, /\buntrusted (?:folder|workspace)\b/i],
        network: networkLine([/\bfetch failed\b/i]),
        // `Invalid auth method selected.` (exit 41): GOOGLE_GEMINI_BASE_URL without a selected auth type (0.61).
        auth: [
          /\bPlease set an Auth method\b/i,
          /\bAPI key not valid\b/i,
          /\bAPI_KEY_INVALID\b/,
          /\bInvalid auth method selected\b/i,
        ],
      }),
      HINTS,
    ),
  voice: geminiVoice,
  stateFolders: ['.gemini'],
  // settings.json: mcpServers, hooks, tools.discoveryCommand; extensions bring their own servers and hooks.
  programSettings: [
    '.gemini/settings.json',
    '.gemini/extensions',
    '.gemini/commands',
    '.gemini/hooks',
    '.gemini/trustedFolders.json',
    '.gemini/GEMINI.md',
  ],
  apiHosts: (env) => [
    hostOf(env.GOOGLE_GEMINI_BASE_URL) ?? 'generativelanguage.googleapis.com',
    'cloudcode-pa.googleapis.com',
    'oauth2.googleapis.com',
  ],
  features: { sandbox: false },
};
