// The benchmark's scratch space: one temporary folder under os.tmpdir() holding the git
// repositories, the fake-agent bin folders and the time reports, removed when the run ends.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';

export const BENCH_DIR = resolve(import.meta.dirname, '..');
export const PACKAGE_ROOT = resolve(BENCH_DIR, '..');
/** The ralph under test: this checkout's, or another build's (RALPH_BENCH_BIN, for a before/after). */
export const RALPH_BIN = process.env.RALPH_BENCH_BIN ?? join(PACKAGE_ROOT, 'bin/ralph.cjs');
export const REFERENCE_SCRIPT = join(BENCH_DIR, 'reference-ralph.sh');

/** The fake agents, by the job they do. */
export const AGENTS = {
  instantCommit: join(BENCH_DIR, 'agents/instant-commit.sh'),
  flood: join(BENCH_DIR, 'agents/flood.sh'),
  streamJson: join(BENCH_DIR, 'agents/stream-json.mjs'),
  streamCommit: join(BENCH_DIR, 'agents/stream-commit.sh'),
};

const IDENTITY = {
  GIT_AUTHOR_NAME: 'Ralph Bench',
  GIT_AUTHOR_EMAIL: 'bench@ralph.invalid',
  GIT_COMMITTER_NAME: 'Ralph Bench',
  GIT_COMMITTER_EMAIL: 'bench@ralph.invalid',
};

/** Creates the scratch folder; `dispose` removes it and everything in it. */
export function createWorkspace() {
  const root = mkdtempSync(join(tmpdir(), 'ralph-bench-'));
  const scratch = join(root, 'scratch');
  mkdirSync(scratch);
  let repos = 0;
  return {
    root,
    scratch,
    /**
     * A fresh git repository with ralph/prompt.md and a tasks.json whose stories never all pass,
     * so neither loop ever stops early on COMPLETE. `stories`: how many (3 unless a scenario
     * measures a long list).
     */
    makeRepo(stories = 3) {
      const dir = join(root, `repo-${++repos}`);
      mkdirSync(join(dir, 'ralph'), { recursive: true });
      const git = (/** @type {string[]} */ ...args) =>
        execFileSync('git', args, { cwd: dir, env: { ...process.env, ...IDENTITY }, stdio: 'ignore' });
      git('init', '-q');
      // Both loops add thousands of commits; an automatic gc in the middle would be noise.
      git('config', 'gc.auto', '0');
      writeFileSync(
        join(dir, 'ralph/prompt.md'),
        'Implement the highest-priority story that does not pass yet, run the tests, commit.\n',
      );
      const list = Array.from({ length: stories }, (_, i) => i + 1).map((n) => ({
        id: `US-${n}`,
        title: `Story ${n}`,
        priority: n,
        passes: n === 1,
      }));
      writeFileSync(join(dir, 'ralph/tasks.json'), JSON.stringify({ project: 'bench', stories: list }, null, 2) + '\n');
      git('add', '-A');
      git('commit', '-q', '-m', 'initial');
      return { dir, dispose: () => rmSync(dir, { recursive: true, force: true }) };
    },
    /** A folder whose only entry is `claude`, a link to the given fake agent. */
    agentBin(/** @type {string} */ agent) {
      const dir = mkdtempSync(join(root, 'bin-'));
      symlinkSync(agent, join(dir, 'claude'));
      return dir;
    },
    /**
     * The environment both loops run in: the fake agent first on PATH, a git identity, no colour,
     * and IS_SANDBOX (the fake agent is named `claude`: run as root, ralph would refuse it otherwise).
     */
    env(/** @type {string} */ binDir, /** @type {Record<string, string>} */ extra = {}) {
      /** @type {NodeJS.ProcessEnv} */
      const env = {
        ...process.env,
        ...IDENTITY,
        PATH: `${binDir}${delimiter}${process.env.PATH ?? ''}`,
        NO_COLOR: '1',
        LC_ALL: 'C',
        IS_SANDBOX: '1',
        // Like for like with the bash loop, which has no box: scenario 9 measures the box on its own.
        RALPH_BOX: 'none',
        ...extra,
      };
      delete env.FORCE_COLOR;
      delete env.CLAUDECODE;
      return env;
    },
    dispose: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** @typedef {ReturnType<typeof createWorkspace>} Workspace */
