import { fitsInArgument } from '../agent-command.js';
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
};

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
  reportsCost: false,
  command(bin, request) {
    const fits = fitsInArgument(request.prompt);
    return {
      file: bin,
      args: [
        '-p',
        fits ? request.prompt : 'Follow the instructions above.',
        ...(request.output === 'stream-json' ? ['--output-format', 'stream-json'] : []),
        ...(request.skipPermissions ? ['--yolo'] : []),
        '--skip-trust',
        ...(request.model ? ['--model', request.model] : []),
        ...request.args,
      ],
      ...(fits ? {} : { input: request.prompt }),
    };
  },
  reader: geminiEventReader,
  classifyFailure: (text) =>
    withHint(
      recogniseFailure(text, {
        setup: [/\bfolder is not trusted\b/i, /\buntrusted (?:folder|workspace)\b/i],
        network: networkLine([/\bfetch failed\b/i]),
        auth: [/\bPlease set an Auth method\b/i, /\bAPI key not valid\b/i, /\bAPI_KEY_INVALID\b/],
      }),
      HINTS,
    ),
  voice: geminiVoice,
  features: { stopHook: false, sandbox: false },
};
