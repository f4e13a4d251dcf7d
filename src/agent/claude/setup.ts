import type { ClientSetup } from '../client-setup.js';
import { versionBy } from '../client-setup.js';

/**
 * The Claude Code version the generated workflow pins when `init` finds none installed here: a
 * release on npm (`npm view @anthropic-ai/claude-code@2.1.332 version`) whose `engines` asks for
 * Node 22, which the workflow sets up.
 */
export const DEFAULT_CLAUDE_CODE_VERSION = '2.1.332';

/** Claude Code as `ralph init` sets it up. */
export const CLAUDE_SETUP: ClientSetup = {
  package: '@anthropic-ai/claude-code',
  defaultVersion: DEFAULT_CLAUDE_CODE_VERSION,
  node: 22,
  // `claude --version` prints `2.1.332 (Claude Code)`; a stand-in printing anything else is not the client.
  versionIn: versionBy(/^(\d+\.\d+\.\d+(?:-[\w.]+)?) \(Claude Code\)\s*$/),
  login: 'run `claude` once and follow the prompts (or set ANTHROPIC_API_KEY)',
  key: { variable: 'ANTHROPIC_API_KEY', secret: 'ANTHROPIC_API_KEY' },
};
