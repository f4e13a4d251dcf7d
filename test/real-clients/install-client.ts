import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { AgentKind } from '../../src/agent/dialects.js';

/**
 * The client of each kind that `npm run test:agents` checks, pinned to a build that installs here
 * (Linux, Node 20) from the npm registry alone. Checked 2026-11-26: Claude Code's newest needs
 * Node >= 22 (2.1.197 is the last for Node 20), and the newest `@ampcode/cli`'s platform package was
 * missing from the registry, so Amp is the `@sourcegraph/amp` build that still resolves whole.
 */
export const REAL_CLIENTS: Record<AgentKind, { spec: string; bin: string }> = {
  claude: { spec: '@anthropic-ai/claude-code@2.1.197', bin: 'claude' },
  codex: { spec: '@openai/codex@0.171.0', bin: 'codex' },
  gemini: { spec: '@google/gemini-cli@0.61.0', bin: 'gemini' },
  opencode: { spec: 'opencode-ai@1.18.33', bin: 'opencode' },
  // Checked 2026-12-06: gemini-cli 0.61.0 and opencode-ai 1.18.33 are the newest; the newest
  // `@ampcode/cli` (0.0.1790712063-gb89205) and 0.0.1790179256-g22a153 have no linux-x64 package on
  // the registry, so this is the newest whole one (the same binary `@sourcegraph/amp` installs).
  amp: { spec: '@ampcode/cli@0.0.1790142911-g7618fb', bin: 'amp' },
};

/** Installs take tens of seconds each; a slow registry gets this long. */
const INSTALL_TIMEOUT_MS = 5 * 60_000;

/**
 * The prefix the clients are installed under: RALPH_REAL_CLIENTS_DIR (kept between runs), else a
 * folder in the temporary directory. One prefix per pinned spec, so a version bump installs afresh.
 */
export function clientPrefix(kind: AgentKind): string {
  const root = process.env.RALPH_REAL_CLIENTS_DIR ?? join(tmpdir(), 'ralph-real-clients');
  return join(root, REAL_CLIENTS[kind].spec.replace(/[^\w.@-]+/g, '+'));
}

/**
 * Installs the pinned client with `npm install --prefix` (once per prefix) and gives the path of
 * its executable.
 */
export async function installClient(kind: AgentKind): Promise<string> {
  const { spec, bin } = REAL_CLIENTS[kind];
  const prefix = clientPrefix(kind);
  const executable = join(prefix, 'node_modules', '.bin', bin);
  if (existsSync(executable)) return executable;
  await mkdir(prefix, { recursive: true });
  await promisify(execFile)(
    'npm',
    ['install', '--prefix', prefix, spec, '--no-audit', '--no-fund', '--loglevel=error'],
    {
      timeout: INSTALL_TIMEOUT_MS,
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  if (!existsSync(executable)) throw new Error(`npm install ${spec} left no ${executable}`);
  return executable;
}
