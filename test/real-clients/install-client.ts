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
export const REAL_CLIENTS: Record<AgentKind, { spec: string; bin: string; latest?: string }> = {
  claude: { spec: '@anthropic-ai/claude-code@2.1.332', bin: 'claude' },
  codex: { spec: '@openai/codex@0.171.0', bin: 'codex' },
  gemini: { spec: '@google/gemini-cli@0.61.0', bin: 'gemini' },
  opencode: { spec: 'opencode-ai@1.18.33', bin: 'opencode' },
  // Checked 2026-12-06: gemini-cli 0.61.0 and opencode-ai 1.18.33 are the newest; the newest
  // `@ampcode/cli` (0.0.1790712063-gb89205) and 0.0.1790179256-g22a153 have no linux-x64 package on
  // the registry, so this is the newest whole one (the same binary `@sourcegraph/amp` installs).
  amp: { spec: '@ampcode/cli@0.0.1790142911-g7618fb', bin: 'amp' },
};

/** The package of a spec, without its version: `@scope/name@1.2.3` → `@scope/name`. */
export function packageOf(spec: string): string {
  return spec.slice(0, spec.lastIndexOf('@') > 0 ? spec.lastIndexOf('@') : spec.length);
}

/**
 * The spec `npm run test:agents` installs for a kind: the pinned one, or with
 * RALPH_REAL_CLIENTS_LATEST=1 (the scheduled CI job) the newest release (`@latest`) of the row's
 * `latest` package (a client that moved to another name), else of the pinned spec's package.
 */
export function clientSpec(kind: AgentKind): string {
  const { spec, latest } = REAL_CLIENTS[kind];
  return process.env.RALPH_REAL_CLIENTS_LATEST === '1' ? `${latest ?? packageOf(spec)}@latest` : spec;
}

/** Installs take tens of seconds each; a slow registry gets this long. */
const INSTALL_TIMEOUT_MS = 5 * 60_000;

/**
 * The prefix the clients are installed under: RALPH_REAL_CLIENTS_DIR (kept between runs), else a
 * folder in the temporary directory. One prefix per pinned spec, so a version bump installs afresh.
 */
export function clientPrefix(kind: AgentKind): string {
  const root = process.env.RALPH_REAL_CLIENTS_DIR ?? join(tmpdir(), 'ralph-real-clients');
  return join(root, clientSpec(kind).replace(/[^\w.@-]+/g, '+'));
}

/**
 * Installs the pinned client with `npm install --prefix` (once per prefix) and gives the path of
 * its executable.
 */
export async function installClient(kind: AgentKind): Promise<string> {
  const { bin } = REAL_CLIENTS[kind];
  const spec = clientSpec(kind);
  const prefix = clientPrefix(kind);
  const executable = join(prefix, 'node_modules', '.bin', bin);
  // @latest is looked up afresh each time: yesterday's newest is not today's.
  if (existsSync(executable) && !spec.endsWith('@latest')) return executable;
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

/**
 * The client installed, with what its `--version` says (named in the tests' titles, so a failure
 * names the version), or why it could not be: a test skips its cases then, saying so once.
 */
export type Installed =
  { bin: string; version: string; skip?: undefined } | { bin?: undefined; version?: undefined; skip: string };

/**
 * `installClient` (or `own`, a client of your own) for a test file's top level. One that cannot be
 * installed or started (the registry down, a platform package missing) gives the one line
 * `[real-clients] SKIP <kind> (<spec>): <why>` on stderr, which the CI job counts, instead of
 * failing the file. A skip is never a pass.
 */
export async function installOrSkip(kind: AgentKind, own?: string): Promise<Installed> {
  try {
    const bin = own || (await installClient(kind));
    const { stdout } = await promisify(execFile)(bin, ['--version'], { timeout: 60_000 });
    return { bin, version: `${stdout.trim().split('\n')[0] ?? '?'}, ${own ? bin : clientSpec(kind)}` };
  } catch (error) {
    const why = (error instanceof Error ? error.message : String(error)).split('\n').find((line) => line.trim()) ?? '';
    const skip = `[real-clients] SKIP ${kind} (${clientSpec(kind)}): ${why.trim().slice(0, 300)}`;
    process.stderr.write(`${skip}\n`);
    return { skip };
  }
}
