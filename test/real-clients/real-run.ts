/**
 * One whole `ralph run` of a real client against a stand-in API (npm run test:agents): a one-story
 * repository, an empty HOME, none of this machine's keys, the box when bubblewrap works here, and a
 * bound on the run's time. Shared by gemini.test.ts, opencode.test.ts and amp.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentKind } from '../../src/agent/dialects.js';
import { makeRepo, runRalph, type RalphResult, type Repo } from '../helpers/e2e.js';
import { installOrSkip } from './install-client.js';

/** The key variables of every client: none of this machine's logins reach a test. */
const KEY_VARIABLES = [
  'ANTHROPIC_API_KEY',
  'ANTHROPIC_AUTH_TOKEN',
  'OPENAI_API_KEY',
  'CODEX_API_KEY',
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
];

/** The environment of this process without any key variable, with a fresh empty HOME. */
export function loggedOut(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of KEY_VARIABLES) delete env[name];
  return {
    ...env,
    HOME: mkdtempSync(join(tmpdir(), 'ralph-real-home-')),
    XDG_CONFIG_HOME: undefined,
    XDG_DATA_HOME: undefined,
    ...extra,
  };
}

/**
 * The installed client (RALPH_REAL_<KIND> names one of your own), or why it cannot be had here:
 * installOrSkip's one line, which the CI job counts, and the cases then skip.
 */
export async function clientOrSkip(kind: AgentKind): Promise<{ bin: string } | { skip: string }> {
  const installed = await installOrSkip(kind, process.env[`RALPH_REAL_${kind.toUpperCase()}`]);
  return installed.skip === undefined ? { bin: installed.bin } : { skip: installed.skip };
}

/** Whether bubblewrap can make a box here. */
export function boxWorks(): boolean {
  const probe = ['--unshare-pid', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', 'true'];
  return spawnSync('bwrap', probe).status === 0;
}

export interface RealRun {
  repo: Repo;
  result: RalphResult;
  said: string;
  /** summary.csv as rows of named cells. */
  rows: Record<string, string>[];
}

/**
 * `ralph run --agent <kind> --agent-bin <bin>` in a fresh one-story repository, in the box when it
 * works here, ended by the test's own bound when it outlives `timeoutMs`.
 */
export async function realRun(
  kind: AgentKind,
  bin: string,
  options: { args?: string[]; env: NodeJS.ProcessEnv; timeoutMs: number; before?: (repo: Repo) => Promise<void> },
): Promise<RealRun> {
  const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
  await options.before?.(repo);
  const box = boxWorks() ? { RALPH_BOX: 'bubblewrap' } : {};
  const args = ['run', '--agent', kind, '--agent-bin', bin, '--max-iterations', '2', ...(options.args ?? [])];
  const result = await runRalph(repo, args, {
    env: { ...options.env, ...box, CI: '', NO_COLOR: '1', ...(process.getuid?.() === 0 ? { IS_SANDBOX: '1' } : {}) },
    timeoutMs: options.timeoutMs,
  });
  return { repo, result, said: `${result.stdout}\n${result.stderr}`, rows: summaryRows(repo) };
}

function summaryRows(repo: Repo): Record<string, string>[] {
  let text = '';
  try {
    text = readFileSync(join(repo.root, 'ralph/logs/summary.csv'), 'utf8');
  } catch {
    return [];
  }
  const [header = [], ...rows] = text
    .trim()
    .split('\n')
    .map((line) => line.split(','));
  return rows.map((cells) => Object.fromEntries(header.map((name, index) => [name, cells[index] ?? ''])));
}
