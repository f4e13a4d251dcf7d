import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ensureIgnored } from '../../../src/git/ignored-paths.js';
import { mergeGitignore } from '../../../src/files/gitignore.js';
import { LOOP_OWNED_PATHS } from '../../../src/files/paths.js';

const cleanup: string[] = [];
const PATHS = ['ralph/logs/', 'ralph/blocked.txt', 'ralph/state.json'];

async function repo(gitignore?: string) {
  const root = await mkdtemp(join(tmpdir(), 'ralph-ignore-'));
  cleanup.push(root);
  execFileSync('git', ['init', '-q'], { cwd: root, env: process.env });
  if (gitignore !== undefined) await writeFile(join(root, '.gitignore'), gitignore);
  return root;
}

/** A `git` first on PATH that notes each subcommand it is given, then runs the real one: what was asked. */
async function gitThatCounts(): Promise<() => Promise<string[]>> {
  const bin = await mkdtemp(join(tmpdir(), 'ralph-ignore-bin-'));
  cleanup.push(bin);
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const log = join(bin, 'asked');
  await writeFile(join(bin, 'git'), `#!/bin/sh\necho "$1" >> '${log}'\nexec '${real}' "$@"\n`, { mode: 0o755 });
  vi.stubEnv('PATH', `${bin}:${process.env.PATH ?? ''}`);
  return async () => (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean);
}

const excluded = async (root: string) =>
  (await readFile(join(root, '.git/info/exclude'), 'utf8')).split('\n').filter((line) => line.startsWith('/'));

// The machine's own ignore rules (~/.config/git/ignore, core.excludesFile) must not decide the outcome.
beforeEach(async () => {
  const home = await mkdtemp(join(tmpdir(), 'ralph-ignore-home-'));
  cleanup.push(home);
  vi.stubEnv('HOME', home);
  vi.stubEnv('XDG_CONFIG_HOME', join(home, '.config'));
  vi.stubEnv('GIT_CONFIG_GLOBAL', join(home, '.gitconfig'));
  vi.stubEnv('GIT_CONFIG_NOSYSTEM', '1');
});

afterEach(async () => {
  vi.unstubAllEnvs();
  await Promise.all(cleanup.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('ensureIgnored', () => {
  it('adds every path that nothing ignores yet, once', async () => {
    const root = await repo();
    expect(await ensureIgnored(root, PATHS)).toEqual(PATHS);
    expect(await ensureIgnored(root, PATHS)).toEqual([]);
    expect(await excluded(root)).toEqual(['/ralph/logs/', '/ralph/blocked.txt', '/ralph/state.json']);
  });

  it('asks git nothing once an earlier run listed every path in info/exclude', async () => {
    const root = await repo();
    await ensureIgnored(root, PATHS);
    const asked = await gitThatCounts();
    expect(await ensureIgnored(root, PATHS)).toEqual([]);
    expect(await asked()).toEqual([]);
    // One path more than were listed: git is asked again, and only that path added.
    expect(await ensureIgnored(root, [...PATHS, 'ralph/decide.txt'])).toEqual(['ralph/decide.txt']);
    expect(await asked()).toContain('check-ignore');
  });

  it('asks git only what it ignores, not where info/exclude is, when the files settle it', async () => {
    const root = await repo();
    const asked = await gitThatCounts();
    expect(await ensureIgnored(root, PATHS)).toEqual(PATHS);
    expect(await asked()).toEqual(['check-ignore']);
  });

  it('writes into the common git dir from a linked work tree, where git reads it', async () => {
    const root = await repo();
    const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });
    git('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'first');
    const linked = join(await mkdtemp(join(tmpdir(), 'ralph-ignore-wt-')), 'tree');
    cleanup.push(dirname(linked));
    git('worktree', 'add', '-q', linked);
    expect(await ensureIgnored(linked, PATHS)).toEqual(PATHS);
    expect(await excluded(root)).toEqual(['/ralph/logs/', '/ralph/blocked.txt', '/ralph/state.json']);
    const seen = execFileSync('git', ['check-ignore', '--no-index', 'ralph/blocked.txt'], {
      cwd: linked,
      encoding: 'utf8',
    });
    expect(seen).toBe('ralph/blocked.txt\n');
  });

  it('asks git where info/exclude is when GIT_DIR moves the repository', async () => {
    const root = await repo();
    vi.stubEnv('GIT_DIR', join(root, '.git'));
    const asked = await gitThatCounts();
    expect(await ensureIgnored(root, PATHS)).toEqual(PATHS);
    expect(await asked()).toEqual(['check-ignore', 'rev-parse']);
    expect(await excluded(root)).toEqual(['/ralph/logs/', '/ralph/blocked.txt', '/ralph/state.json']);
  });

  it('asks git when info/exclude un-ignores something, and goes by its answer', async () => {
    const root = await repo();
    await ensureIgnored(root, PATHS);
    await writeFile(join(root, '.git/info/exclude'), '\n!/ralph/logs/\n', { flag: 'a' });
    const asked = await gitThatCounts();
    expect(await ensureIgnored(root, PATHS)).toEqual(['ralph/logs/']);
    expect(await asked()).toContain('check-ignore');
  });

  it('leaves alone what .gitignore already covers', async () => {
    const root = await repo('ralph/logs/\n*.json\n');
    expect(await ensureIgnored(root, PATHS)).toEqual(['ralph/blocked.txt']);
  });

  it('counts a path that a "!" pattern un-ignores as not ignored', async () => {
    const root = await repo('ralph/*\n!ralph/blocked.txt\n');
    expect(await ensureIgnored(root, PATHS)).toEqual(['ralph/blocked.txt']);
  });

  it('ignores a symlinked ralph/logs as the link git sees, instead of failing on a path beyond it', async () => {
    const root = await repo();
    const elsewhere = await mkdtemp(join(tmpdir(), 'ralph-ignore-logs-'));
    cleanup.push(elsewhere);
    await mkdir(join(root, 'ralph'));
    await symlink(elsewhere, join(root, 'ralph/logs'));
    expect(await ensureIgnored(root, PATHS)).toEqual(['ralph/logs', 'ralph/blocked.txt', 'ralph/state.json']);
    const status = execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(status).not.toContain('ralph/logs');
  });

  it('ignores the whole of a symlinked ralph/ as one link', async () => {
    const root = await repo();
    const elsewhere = await mkdtemp(join(tmpdir(), 'ralph-ignore-dir-'));
    cleanup.push(elsewhere);
    await symlink(elsewhere, join(root, 'ralph'));
    expect(await ensureIgnored(root, PATHS)).toEqual(['ralph']);
  });

  // Written beside the lock and state.json while a run is live (src/files/active-lock.ts, run-state.ts).
  const temporaryFiles = [
    'ralph/.ralph-active',
    'ralph/.ralph-active.4242.tmp',
    'ralph/.ralph-active.4242.new',
    'ralph/.ralph-active.4242.stale',
    'ralph/state.json',
    'ralph/state.json.4242.tmp',
  ];
  const untracked = async (root: string) => {
    await mkdir(join(root, 'ralph'), { recursive: true });
    for (const path of temporaryFiles) await writeFile(join(root, path), '{}\n');
    return execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: root, encoding: 'utf8' });
  };

  it("leaves git status clean while the lock's and state.json's temporary files exist", async () => {
    const root = await repo();
    await ensureIgnored(root, LOOP_OWNED_PATHS);
    expect(await untracked(root)).toBe('');
  });

  it('the .gitignore that ralph init writes covers them too', async () => {
    const root = await repo(mergeGitignore(undefined, LOOP_OWNED_PATHS).text);
    expect(await untracked(root)).toBe('?? .gitignore\n');
  });
});
