// The other loop runners the peers scenario measures, as each one's README says to run it: how
// each is installed (from the npm registry, into a folder of the bench's own), what task file it
// reads, and its command line for `iterations` iterations of a `claude` found on PATH.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The packages to install: the three runners, and Bun, which ralph-tui runs on. */
export const PEER_PACKAGES = ['ralph-tui', 'ralphy-cli', 'ralph-starter', 'bun'];

/**
 * Installs the peers into `prefix` (kept when they are there already: BENCH_PEERS_PREFIX reuses a
 * folder across runs); resolves to why not when the registry cannot be reached.
 * @returns {string | undefined} the reason they could not be installed
 */
export function installPeers(/** @type {string} */ prefix) {
  if (PEER_PACKAGES.every((name) => existsSync(join(prefix, 'node_modules', name, 'package.json')))) return undefined;
  try {
    execFileSync('npm', ['ping'], { stdio: 'ignore', timeout: 30_000 });
  } catch {
    return 'the npm registry cannot be reached';
  }
  mkdirSync(prefix, { recursive: true });
  // No install scripts: one of them (only-allow pnpm) refuses npm, and Bun's binary is in its package.
  const args = ['install', '--prefix', prefix, '--ignore-scripts', '--no-audit', '--no-fund', ...PEER_PACKAGES];
  try {
    execFileSync('npm', args, { stdio: 'ignore', timeout: 900_000 });
  } catch (error) {
    return `npm install failed: ${/** @type {Error} */ (error).message.split('\n')[0]}`;
  }
  return undefined;
}

/**
 * @typedef {object} Peer
 * @property {string} name
 * @property {(dir: string) => void} prepare  writes its task file (and settings) into a fresh repository
 * @property {(iterations: number) => [string, string[]]} command
 */

/** The peers, their command lines in `prefix`. @returns {Peer[]} */
export function peers(/** @type {string} */ prefix) {
  const modules = join(prefix, 'node_modules');
  const bun = join(modules, '@oven/bun-linux-x64/bin/bun');
  const tasks = (/** @type {number} */ n) => Array.from({ length: n }, (_, i) => i + 1);
  return [
    {
      name: 'ralph-tui',
      // Its headless run reads its settings from .ralph-tui/config.toml (its setup wizard needs a terminal).
      prepare: (dir) => {
        const userStories = tasks(200).map((n) => ({
          id: `US-${n}`,
          title: `Task ${n}`,
          description: 'A task.',
          acceptanceCriteria: ['done'],
          priority: n,
          passes: false,
        }));
        writeFileSync(join(dir, 'prd.json'), JSON.stringify({ name: 'bench', userStories }, null, 2));
        mkdirSync(join(dir, '.ralph-tui'));
        const config = 'configVersion = "2.1"\nagent = "claude"\ntracker = "json"\nautoCommit = false\n';
        writeFileSync(join(dir, '.ralph-tui/config.toml'), `${config}iterationDelay = 0\n`);
      },
      command: (n) => [
        bun,
        [join(modules, 'ralph-tui/dist/cli.js'), 'run', '--prd', './prd.json', '--headless', '--iterations', `${n}`],
      ],
    },
    {
      name: 'ralphy',
      prepare: (dir) =>
        writeFileSync(
          join(dir, 'PRD.md'),
          tasks(200)
            .map((n) => `- [ ] Task ${n}\n`)
            .join(''),
        ),
      command: (n) => [join(modules, '.bin/ralphy'), ['--prd', 'PRD.md', '--max-iterations', `${n}`, '--fast']],
    },
    {
      name: 'ralph-starter',
      prepare: () => undefined,
      command: (n) => [
        join(modules, '.bin/ralph-starter'),
        ['run', 'add a feature', '--agent', 'claude-code', '--max-iterations', `${n}`, '--no-track-progress'],
      ],
    },
  ];
}
