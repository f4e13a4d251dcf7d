import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { hostname } from 'node:os';
import { appendFile, mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import type { Step } from '../../src/demo/script-step.js';
import { processStartTime } from '../../src/process/proc.js';
import { takeKernelLock, type KernelLock } from '../../src/files/kernel-lock.js';

export const PACKAGE_ROOT = resolve(import.meta.dirname, '../..');
export const RALPH_BIN = join(PACKAGE_ROOT, 'bin/ralph.cjs');
export const FAKE_BIN_DIR = join(PACKAGE_ROOT, 'test/fixtures/bin');

export type { Step };

export interface StoryInput {
  id: string;
  passes?: boolean;
  title?: string;
  reviewStatus?: 'pending' | 'changes_requested' | 'approved';
}

/** A fresh git repository with ralph/prompt.md and ralph/tasks.json, committed unless `unborn`. */
export async function makeRepo(options: { stories?: StoryInput[]; unborn?: boolean; tasksText?: string } = {}) {
  const repo = await makeProject({ git: 'unborn' });
  await mkdir(join(repo.root, 'ralph'));
  await writeFile(join(repo.root, 'ralph/prompt.md'), 'Implement the next story.\n');
  const stories = (options.stories ?? [{ id: 'US-1' }, { id: 'US-2' }]).map((story, index) => ({
    id: story.id,
    title: story.title ?? `Story ${story.id}`,
    priority: index + 1,
    passes: story.passes ?? false,
    ...(story.reviewStatus ? { reviewStatus: story.reviewStatus } : {}),
  }));
  await writeFile(
    join(repo.root, 'ralph/tasks.json'),
    options.tasksText ?? JSON.stringify({ project: 'e2e', stories }, null, 2),
  );
  if (!options.unborn) {
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'initial');
  }
  return repo;
}

/** The task list an agent writes when it marks every story passing and approved: the self-approval. */
export function everyStoryApproved(ids: readonly string[]) {
  return {
    project: 'e2e',
    stories: ids.map((id, index) => ({
      id,
      title: `Story ${id}`,
      priority: index + 1,
      passes: true,
      reviewStatus: 'approved',
    })),
  };
}

/**
 * A temporary folder with no ralph files, for `ralph init`: a git repository with one commit
 * (`committed`), a repository with no commit yet (`unborn`), or not a repository at all (`none`).
 */
export async function makeProject(options: { git: 'committed' | 'unborn' | 'none' }) {
  const root = await mkdtemp(join(tmpdir(), 'ralph-e2e-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8', env: gitEnv() }).trim();
  if (options.git !== 'none') {
    git('init', '-q');
    // The fake agent's script and call records live in the work tree, but are no change of the user's.
    await appendFile(join(root, '.git/info/exclude'), '/.agent-script.json*\n');
  }
  if (options.git === 'committed') {
    await writeFile(join(root, 'README.md'), '# project\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'initial');
  }
  const script = join(root, '.agent-script.json');
  return {
    root,
    git,
    script,
    /** Scripts the fake agent: one step per call, the last repeating. */
    steps: (steps: Step[]) => writeFile(script, JSON.stringify(steps)),
    /** What the fake agent received on its Nth call (argv, prompt, …). */
    call: (n: number) =>
      JSON.parse(readFileSync(`${script}.call-${n}.json`, 'utf8')) as {
        argv: string[];
        prompt: string;
        claudecode: string | null;
        marker: string | null;
      },
    calls: () => (existsSync(`${script}.calls`) ? Number(readFileSync(`${script}.calls`, 'utf8')) : 0),
    read: (path: string) => readFileSync(join(root, path), 'utf8'),
    exists: (path: string) => existsSync(join(root, path)),
    write: async (path: string, text: string) => {
      await mkdir(dirname(join(root, path)), { recursive: true });
      await writeFile(join(root, path), text);
    },
    list: async (path: string) => (await readdir(join(root, path))).sort(),
    logs: async () => (await readdir(join(root, 'ralph/logs'))).sort(),
    csvRows: () =>
      readFileSync(join(root, 'ralph/logs/summary.csv'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => line.split(',')),
    lastRun: () => JSON.parse(readFileSync(join(root, 'ralph/logs/last-run.json'), 'utf8')) as Record<string, unknown>,
  };
}

/** Git identity for commits made in test repositories, and no looking above them for another repository. */
export function gitEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GIT_AUTHOR_NAME: 'Ralph Test',
    GIT_AUTHOR_EMAIL: 'test@ralph.invalid',
    GIT_COMMITTER_NAME: 'Ralph Test',
    GIT_COMMITTER_EMAIL: 'test@ralph.invalid',
    GIT_CEILING_DIRECTORIES: tmpdir(),
  };
}

export type Repo = Awaited<ReturnType<typeof makeRepo>>;

export interface RalphResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `ralph` in the repository with the fake `claude` first on PATH. */
export function runRalph(
  repo: Repo,
  args: string[],
  options: {
    env?: NodeJS.ProcessEnv;
    /** Where to run it, relative to the repository root (default: the root). */
    cwd?: string;
    onStdout?: (text: string, child: ReturnType<typeof spawn>) => void;
    timeoutMs?: number;
    /** Written to ralph's stdin, which is then closed (default: no stdin). */
    input?: string;
    /** A command ralph is run under, e.g. `['unshare', '-pf', '--mount-proc']`; ralph's argv follows it. */
    wrapper?: string[];
    /** Called once ralph has started. */
    onStart?: (child: ReturnType<typeof spawn>) => void;
    /** Another ralph to run than this build's bin/ralph.cjs (a copy installed elsewhere). */
    bin?: string;
  } = {},
): Promise<RalphResult> {
  const env: NodeJS.ProcessEnv = {
    ...gitEnv(),
    PATH: `${FAKE_BIN_DIR}${delimiter}${process.env.PATH ?? ''}`,
    RALPH_AGENT_SCRIPT: repo.script,
    NO_COLOR: '1',
    // Most suites test one behaviour at a time without the review cycle; its own suite turns it on.
    RALPH_SKIP_REVIEW: '1',
    // The tests run as root in CI, and the fake agent is named `claude`: as in a trusted container,
    // IS_SANDBOX lifts the root check (its own test unsets it).
    IS_SANDBOX: '1',
    // The suites below test ralph's own supervision, whose pids a box's namespace would hide from
    // them; the box has its own suite (box.test.ts), which asks for it.
    RALPH_BOX: 'none',
    // `ralph init --ci github` asks the npm registry whether this version is published: the tests
    // inject the answer (a test that means another says so), so none depends on the network.
    RALPH_TEST_REGISTRY_ANSWER: 'published',
    // The suite itself may run in CI: ralph under test sees a CI only where a test sets one.
    CI: undefined,
    GITHUB_ACTIONS: undefined,
    GITHUB_OUTPUT: undefined,
    GITHUB_STEP_SUMMARY: undefined,
    ...options.env,
  };
  if (options.env?.FORCE_COLOR === undefined) delete env.FORCE_COLOR;
  // A variable set to undefined means: not set at all.
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  return new Promise((resolvePromise, reject) => {
    const bin = options.bin ?? RALPH_BIN;
    const [file, ...argv] = [...(options.wrapper ?? []), process.execPath, bin, ...args] as [string, ...string[]];
    const cwd = join(repo.root, options.cwd ?? '');
    const child =
      options.input === undefined
        ? spawn(file, argv, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] })
        : spawn(file, argv, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
    options.onStart?.(child);
    // ralph may exit without reading it all; that is not the test's failure.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(options.input);
    let stdout = '';
    let stderr = '';
    // A guard against a hang, not a measure: a loaded machine stretches one run to tens of seconds.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`ralph ${args.join(' ')} did not finish in time\n${stdout}\n${stderr}`));
    }, options.timeoutMs ?? 120_000);
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      options.onStdout?.(stdout, child);
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => {
      clearTimeout(timer);
      resolvePromise({ code, stdout, stderr });
    });
  });
}

/** Whether a process with this pid is alive (a zombie waiting to be reaped is not). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

/** Waits until the condition holds, or fails after the limit. */
export async function waitFor(condition: () => boolean, limitMs = 10_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * The processes, other than this one, whose environment carries RALPH_RUN_MARKER starting with
 * `prefix` — read straight from /proc, as a person would check with `grep -z`.
 */
export function processesMarked(prefix: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const environ = readFileSync(`/proc/${entry}/environ`, 'latin1').split('\0');
      if (environ.some((variable) => variable.startsWith(`RALPH_RUN_MARKER=${prefix}`)) && isAlive(Number(entry)))
        found.push(Number(entry));
    } catch {
      // Gone while we looked.
    }
  }
  return found;
}

/** The run id of a marker (`<run id>:agent-3` → `<run id>:`), for finding every process of that run. */
export function runPrefix(marker: string | null): string {
  if (!marker?.includes(':')) throw new Error(`not a run marker: ${marker}`);
  return `${marker.slice(0, marker.indexOf(':'))}:`;
}

/**
 * What a `.ralph-active` text says now: described whole as the run takes the lock, then once more a
 * line for each change (the iteration, the agent's group), the last line the run as it is.
 */
export function lockNow(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return JSON.parse(text.trimEnd().split('\n').at(-1)!) as Record<string, unknown>;
  }
}

/** A `.ralph-active` naming a live process (this test's, by default) as its owner. */
export function liveLock(fields: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    pid: process.pid,
    startTime: processStartTime(process.pid),
    host: hostname(),
    marker: 'test0000',
    startedAt: new Date().toISOString(),
    iteration: 1,
    maxIterations: 10,
    stuckCount: 0,
    mode: 'implement',
    ...fields,
  };
}

/** Holds the repository's kernel lock from this test process, as a live ralph run would. */
export async function holdRunLock(repo: { root: string }): Promise<KernelLock> {
  const lock = await takeKernelLock(realpathSync(repo.root));
  if (!lock) throw new Error(`the run lock of ${repo.root} is already held`);
  return lock;
}

/** An `onStart` for runRalph: SIGKILLs ralph once `pidFile` holds something (the agent's daemon is up). */
export function killOnceWritten(pidFile: string): (child: ReturnType<typeof spawn>) => void {
  return (child) => {
    const poll = setInterval(() => {
      if (existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() && !child.killed) child.kill('SIGKILL');
    }, 25);
    child.once('exit', () => clearInterval(poll));
  };
}
