/**
 * A whole `ralph run` with a real client against a stand-in API (npm run test:agents): a fresh
 * repository with one story, a fresh HOME with no login of this machine's, the box when bubblewrap
 * can make one here, and the records (summary.csv, last-run.json) read back.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentKind } from '../../src/agent/dialects.js';
import { makeRepo, runRalph, type RalphResult, type Repo } from '../helpers/e2e.js';
import { installOrSkip } from './install-client.js';

/** Every variable through which a client could find a login, or a server, of this machine's. */
const LOGIN_VARIABLES = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'ANTHROPIC_BASE_URL',
  'CLAUDE_CODE_OAUTH_TOKEN',
  'CLAUDE_CONFIG_DIR',
  'OPENAI_API_KEY',
  'OPENAI_BASE_URL',
  'CODEX_API_KEY',
  'CODEX_HOME',
  'GEMINI_API_KEY',
  'GOOGLE_API_KEY',
  'GOOGLE_GENAI_USE_VERTEXAI',
  'GOOGLE_GENAI_USE_GCA',
  'GOOGLE_GEMINI_BASE_URL',
  'OPENCODE_API_KEY',
  'OPENCODE_CONFIG',
  'OPENCODE_CONFIG_CONTENT',
  'AMP_API_KEY',
  'AMP_URL',
  'XDG_CONFIG_HOME',
  'XDG_DATA_HOME',
];

/** An environment with none of this machine's logins: an empty HOME, no key variable, then `extra`. */
export function withoutLogins(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, HOME: mkdtempSync(join(tmpdir(), 'ralph-real-home-')) };
  // Deleted, not set to undefined: some cases hand this environment to the client directly.
  for (const name of LOGIN_VARIABLES) delete env[name];
  return { ...env, ...extra };
}

/**
 * The installed client (RALPH_REAL_<KIND> names one of your own), or why it cannot be had here:
 * installOrSkip's one line, which the CI job counts, and the cases then skip.
 */
export async function clientOrSkip(kind: AgentKind): Promise<{ bin: string } | { skip: string }> {
  const installed = await installOrSkip(kind, process.env[`RALPH_REAL_${kind.toUpperCase()}`]);
  return installed.skip === undefined ? { bin: installed.bin } : { skip: installed.skip };
}

let boxChecked: boolean | undefined;

/** Whether bubblewrap can make a box here (it cannot where user namespaces are refused). */
export function boxWorks(): boolean {
  boxChecked ??=
    spawnSync('bwrap', ['--unshare-pid', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', 'true']).status ===
    0;
  return boxChecked;
}

export interface Loop {
  result: RalphResult;
  repo: Repo;
  /** summary.csv as one record per iteration, by column name. */
  rows: Record<string, string>[];
  /** ralph/logs/last-run.json. */
  lastRun: Record<string, unknown>;
  /** What ralph printed, both streams. */
  said: string;
}

/**
 * `ralph run --agent <kind> --agent-bin <bin> --max-iterations 2 [args]` in a fresh one-story
 * repository, in the box when it works here (else outside it, said once on stderr), within
 * `timeoutMs`.
 */
export async function runLoop(options: {
  kind: AgentKind;
  bin: string;
  env: NodeJS.ProcessEnv;
  args?: string[];
  timeoutMs?: number;
}): Promise<Loop> {
  const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
  const args = ['run', '--agent', options.kind, '--agent-bin', options.bin, '--max-iterations', '2'];
  const result = await runRalph(repo, [...args, ...(options.args ?? [])], {
    env: {
      ...options.env,
      RALPH_BOX: boxWorks() ? 'bubblewrap' : 'none',
      // The suite may itself run in CI: the client under test sees none.
      CI: '',
      // As root the real Claude Code refuses --dangerously-skip-permissions unless told it is in a sandbox.
      IS_SANDBOX: '1',
    },
    timeoutMs: options.timeoutMs ?? 150_000,
  });
  const said = `${result.stdout}\n${result.stderr}`;
  const rows = repo.exists('ralph/logs/summary.csv') ? csvRecords(repo.read('ralph/logs/summary.csv')) : [];
  const lastRun = repo.exists('ralph/logs/last-run.json') ? repo.lastRun() : {};
  return { result, repo, rows, lastRun, said };
}

if (!boxWorks()) process.stderr.write('[real-clients] bubblewrap cannot make a box here: the loops run outside it\n');

/** The sums over the iterations' records of what the client reported. */
export function reported(rows: readonly Record<string, string>[]) {
  const sum = (column: string) => rows.reduce((total, row) => total + Number(row[column] || 0), 0);
  return { inputTokens: sum('input_tokens'), outputTokens: sum('output_tokens'), costUsd: sum('cost_usd') };
}

/** A CSV of ralph's own (no quoted commas in these columns) as records by header name. */
function csvRecords(text: string): Record<string, string>[] {
  const [header = '', ...lines] = text.trim().split('\n');
  const names = header.split(',');
  return lines.map((line) => Object.fromEntries(line.split(',').map((value, index) => [names[index] ?? '', value])));
}
