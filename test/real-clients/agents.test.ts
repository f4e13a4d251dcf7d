/**
 * The five real clients, installed from the npm registry and run through the built ralph with no
 * credentials (npm run test:agents; opt-in). Each must end the run with exit 64 and its own login or
 * network fix, after at most one call, in under two minutes, and leave no process behind. Whether
 * the model APIs answer here or not, ralph must read what the client prints: nothing is mocked.
 * RALPH_REAL_CLIENTS_DIR keeps the installs between runs (see install-client.ts).
 */
import { spawn } from 'node:child_process';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { lookup } from 'node:dns/promises';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentKind } from '../../src/agent/dialects.js';
import { clientPrefix, installOrSkip, type Installed } from './install-client.js';

const RALPH_BIN = resolve(import.meta.dirname, '../../bin/ralph.cjs');
/** What the issue asks of a logged-out client: ended within two minutes. */
const TWO_MINUTES = 120_000;
/** What issue #43 asks of a preflight that finds no key or no network: the run ends within 10 s. */
const PREFLIGHT_BOUND = 10_000;

interface Case {
  kind: AgentKind;
  /** Extra `ralph run` arguments. */
  args?: string[];
  /** How the run must end: its reason, and the fix it names. */
  reason: RegExp;
  fix: RegExp;
  /** Only when the model APIs cannot be reached from here (with them, the call may succeed). */
  offlineOnly?: boolean;
  /** The longest the whole run may take. */
  withinMs?: number;
  /** Extra variables for ralph. */
  env?: NodeJS.ProcessEnv;
  /** A preflight ends it: no agent call at all. */
  noCall?: boolean;
  why: string;
}

const CASES: Case[] = [
  {
    kind: 'claude',
    reason: /not logged in/,
    fix: /ANTHROPIC_API_KEY/,
    why: 'its preflight reads `claude auth status`',
  },
  {
    kind: 'claude',
    args: ['--skip-preflight'],
    reason: /AGENT AUTH/,
    fix: /ANTHROPIC_API_KEY/,
    why: 'one call: its own "Not logged in" message',
  },
  { kind: 'codex', reason: /not logged in/, fix: /codex login/, why: 'its preflight asks `codex login status`' },
  {
    kind: 'codex',
    args: ['--skip-preflight'],
    reason: /AGENT (?:SETUP|AUTH)/,
    fix: /network|codex login/,
    // Without a network Codex only reconnects, for good: the retry window ends it (two minutes,
    // shortened here to 20 s with RALPH_TEST_RETRY_WINDOW_MS, so the suite stays within CI's time).
    env: { RALPH_TEST_RETRY_WINDOW_MS: '20000' },
    withinMs: TWO_MINUTES,
    why: 'one call: a 401, or nothing but reconnect notices',
  },
  {
    kind: 'gemini',
    reason: /not logged in/,
    fix: /GEMINI_API_KEY/,
    why: 'its preflight reads its variables and settings',
  },
  {
    kind: 'gemini',
    args: ['--skip-preflight'],
    reason: /AGENT AUTH/,
    fix: /GEMINI_API_KEY/,
    why: 'one call: exit 41 and its auth message, on stderr only',
  },
  {
    kind: 'opencode',
    reason: /cannot reach https:\/\/opencode\.ai/,
    fix: /network/,
    offlineOnly: true,
    noCall: true,
    withinMs: PREFLIGHT_BOUND,
    why: 'its preflight probes the API of the model its config names (the free default: opencode.ai)',
  },
  {
    kind: 'opencode',
    args: ['--skip-preflight'],
    reason: /AGENT SETUP/,
    fix: /network/,
    offlineOnly: true,
    // It retries for a minute or two (137 s seen) before it ends.
    withinMs: TWO_MINUTES + 60_000,
    why: 'one call: its free default model needs no login, so without a network it is the API it cannot reach',
  },
  {
    kind: 'amp',
    reason: /not logged in/,
    fix: /AMP_API_KEY/,
    noCall: true,
    withinMs: PREFLIGHT_BOUND,
    why: 'its preflight finds no AMP_API_KEY and no token from `amp login`',
  },
  {
    kind: 'amp',
    args: ['--skip-preflight'],
    reason: /AGENT AUTH/,
    fix: /AMP_API_KEY/,
    why: 'one call: a login prompt on stdout, ended at once instead of waiting for a pasted code',
  },
];

/** Whether this machine reaches the clients' APIs (their names resolve); unknown counts as online. */
async function online(): Promise<boolean> {
  const probe = Promise.all(['api.openai.com', 'opencode.ai'].map((host) => lookup(host)));
  const timeout = new Promise<'timeout'>((done) => setTimeout(() => done('timeout'), 5000).unref());
  return Promise.race([probe.then(() => true), timeout.then(() => false)]).catch(() => false);
}

const isOnline = await online();

/** Each kind installed once (a client that cannot be skips its cases, saying why once). */
const installs = new Map<AgentKind, Installed>();
for (const { kind } of CASES) if (!installs.has(kind)) installs.set(kind, await installOrSkip(kind));

describe.each(CASES)('the real $kind, logged out, through ralph', (c) => {
  const executable = installs.get(c.kind)?.bin ?? '';

  it.skipIf((c.offlineOnly && isOnline) || !executable)(
    `${c.args?.join(' ') ?? 'as configured'}: exit 64 with its own fix, at most one call, nothing left running (${c.why})`,
    async () => {
      const repo = await taskRepo();
      const started = Date.now();
      const args = ['run', '--agent', c.kind, '--agent-bin', executable, '--max-iterations', '3', ...(c.args ?? [])];
      // A mark in the environment ralph hands its clients: the files beside this one run the same
      // client at the same time, and only what this run started is this run's to leave nothing of.
      const mark = `${process.pid}-${Math.random().toString(36).slice(2)}`;
      const result = await ralph(repo, args, c.withinMs ?? TWO_MINUTES, { ...c.env, RALPH_REAL_CASE: mark });
      const said = result.stdout + result.stderr;
      expect(result.code, said).toBe(64);
      expect(Date.now() - started).toBeLessThan(c.withinMs ?? TWO_MINUTES);
      expect(said).toMatch(c.reason);
      expect(said).toMatch(c.fix);
      expect(iterationsRun(repo)).toBeLessThanOrEqual(c.noCall ? 0 : 1);
      expect(processesUnder(clientPrefix(c.kind), `RALPH_REAL_CASE=${mark}`)).toEqual([]);
    },
    (c.withinMs ?? TWO_MINUTES) + 30_000,
  );
});

/** A repository with a prompt and one open story, committed. */
async function taskRepo(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'ralph-real-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, env: gitIdentity(), stdio: 'ignore' });
  git('init', '-q');
  await mkdir(join(root, 'ralph'));
  await writeFile(join(root, 'ralph/prompt.md'), 'Implement the next story.\n');
  const stories = [{ id: 'US-1', title: 'Say hello', priority: 1, passes: false }];
  await writeFile(join(root, 'ralph/tasks.json'), JSON.stringify({ project: 'real', stories }, null, 2));
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  return root;
}

function gitIdentity(): NodeJS.ProcessEnv {
  return {
    PATH: [dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    GIT_AUTHOR_NAME: 'Ralph Test',
    GIT_AUTHOR_EMAIL: 'test@ralph.invalid',
    GIT_COMMITTER_NAME: 'Ralph Test',
    GIT_COMMITTER_EMAIL: 'test@ralph.invalid',
    GIT_CEILING_DIRECTORIES: tmpdir(),
  };
}

/**
 * The built ralph in the repository, with nothing of this machine's logins: a fresh empty HOME,
 * only PATH and a git identity passed on (so no key variable). As root, IS_SANDBOX=1 lifts Claude
 * Code's root refusal, as in a container; it says nothing of a login.
 */
async function ralph(root: string, args: string[], limitMs: number, extra: NodeJS.ProcessEnv = {}) {
  const home = await mkdtemp(join(tmpdir(), 'ralph-real-home-'));
  const root0 = process.getuid?.() === 0 ? { IS_SANDBOX: '1' } : {};
  const env = { ...gitIdentity(), HOME: home, NO_COLOR: '1', ...root0, ...extra };
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done, fail) => {
    const child = spawn(process.execPath, [RALPH_BIN, ...args], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGINT');
      fail(new Error(`ralph ${args.join(' ')} was still running after ${limitMs} ms\n${stdout}\n${stderr}`));
    }, limitMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
}

/** The iterations ralph recorded (none when a preflight refused before the first call). */
function iterationsRun(root: string): number {
  const csv = join(root, 'ralph/logs/summary.csv');
  return existsSync(csv) ? readFileSync(csv, 'utf8').trim().split('\n').length - 1 : 0;
}

/**
 * Live processes whose command line names a path under the prefix (the client, its native binary)
 * and whose environment holds `mark`: this case's, not a neighbouring file's.
 */
function processesUnder(prefix: string, mark: string): string[] {
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ');
      const state = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!cmdline.includes(prefix) || /^\d+ \(.*\) Z/.test(state)) continue;
      if (readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(mark))
        found.push(`${pid}: ${cmdline.slice(0, 200)}`);
    } catch {
      // Gone while we looked.
    }
  }
  return found;
}
