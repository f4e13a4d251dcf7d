import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installOf, packageOf } from '../../../src/box/box-mounts.js';
import { accessAt, boxPolicy, orderedMounts, type BoxPlaces } from '../../../src/box/box-policy.js';

const main: BoxPlaces = {
  workTree: '/r',
  gitDir: '/r/.git',
  commonDir: '/r/.git',
  recordDir: '/r/.git/ralph',
  home: '/h',
  tmp: '/t/box',
  clientState: ['/h/.claude'],
};
const none = { write: [], readOnly: [], hidden: [] };

/** Where the mounts leave each path: the deepest mount over it decides. */
function accessOf(mounts: ReturnType<typeof orderedMounts>, path: string) {
  return accessAt(new Map(mounts.map((mount) => [mount.path, mount.access])), path);
}

describe('the box policy', () => {
  it('lets the agent write its work tree, git objects, temporary folder and client state, and nothing else', () => {
    const mounts = orderedMounts(boxPolicy(main, none));
    for (const path of ['/r/src/a.ts', '/r/ralph/tasks.json', '/r/ralph/progress.txt', '/r/.git/objects/ab/cd'])
      expect(accessOf(mounts, path), path).toBe('write');
    for (const path of ['/r/.git/refs/heads/main', '/t/box/x', '/h/.claude/session'])
      expect(accessOf(mounts, path), path).toBe('write');
    for (const path of [
      '/h/.bashrc',
      '/h/.npm/_npx/x/cli.js',
      '/etc/passwd',
      '/t/other',
      '/usr/lib/node_modules/ralph/x.js',
    ])
      expect(accessOf(mounts, path), path).toBe('read');
  });

  it("keeps what decides what runs next read-only inside the work tree: git's config and hooks, ralph's records", () => {
    const mounts = orderedMounts(boxPolicy(main, none));
    for (const path of [
      '/r/.git/config',
      '/r/.git/hooks/post-commit',
      '/r/.git/info/attributes',
      '/r/.git/ralph/state.json',
      '/r/ralph/config.json',
      '/r/ralph/prompt.md',
      '/r/ralph/logs/last-run.json',
      '/r/ralph/worktrees/b/src/x.ts',
      '/r/.git/worktrees/b/HEAD',
    ])
      expect(accessOf(mounts, path), path).toBe('read');
  });

  it("holds the client's program-starting settings read-only inside its writable state, its login writable", () => {
    const places = { ...main, clientSettings: ['/h/.claude/settings.json', '/h/.claude/commands'] };
    const mounts = orderedMounts(boxPolicy(places, { ...none, write: ['/h/.claude/settings.json'] }));
    for (const path of ['/h/.claude/settings.json', '/h/.claude/commands/go.md'])
      expect(accessOf(mounts, path), path).toBe('read');
    for (const path of ['/h/.claude/.credentials.json', '/h/.claude/projects/x.jsonl'])
      expect(accessOf(mounts, path), path).toBe('write');
  });

  it('hides the credential stores', () => {
    const mounts = orderedMounts(boxPolicy(main, none));
    for (const path of ['/h/.ssh/id_rsa', '/h/.aws/credentials', '/h/.config/gh/hosts.yml', '/h/.npmrc'])
      expect(accessOf(mounts, path), path).toBe('hidden');
  });

  it('guards every writable folder above a protected path, so it cannot be renamed away', () => {
    const mounts = orderedMounts(boxPolicy(main, none));
    const guards = mounts.filter((mount) => mount.access === 'write').map((mount) => mount.path);
    expect(guards).toContain('/r/.git');
    expect(guards).toContain('/r/ralph');
    // Outside a writable mount there is nothing to guard: a read-only folder cannot be renamed anyway.
    expect(guards).not.toContain('/h');
    expect(guards).not.toContain('/');
  });

  it('orders the mounts parents first, so that a deeper one lies over its parent', () => {
    const paths = orderedMounts(boxPolicy(main, none)).map((mount) => mount.path);
    expect(paths.indexOf('/r')).toBeLessThan(paths.indexOf('/r/.git'));
    expect(paths.indexOf('/r/.git')).toBeLessThan(paths.indexOf('/r/.git/config'));
  });

  it("in a linked worktree: its own git dir writable, its records not, the main checkout's HEAD and index not", () => {
    const linked: BoxPlaces = {
      ...main,
      workTree: '/r/ralph/worktrees/a',
      gitDir: '/r/.git/worktrees/a',
      recordDir: '/r/.git/worktrees/a/ralph',
    };
    const mounts = orderedMounts(boxPolicy(linked, none));
    expect(accessOf(mounts, '/r/ralph/worktrees/a/src/x.ts')).toBe('write');
    expect(accessOf(mounts, '/r/.git/worktrees/a/HEAD')).toBe('write');
    expect(accessOf(mounts, '/r/.git/objects/ab/cd')).toBe('write');
    for (const path of [
      '/r/.git/worktrees/a/ralph/state.json',
      '/r/.git/worktrees/b/HEAD',
      '/r/.git/HEAD',
      '/r/.git/index',
      '/r/.git/ralph/integrations.json',
      '/r/ralph/worktrees/a/.git',
      '/r/ralph/config.json',
      '/r/src/main.ts',
      '/r/ralph/worktrees/b/src/x.ts',
    ])
      expect(accessOf(mounts, path), path).toBe('read');
  });

  it("holds your submodules' .git files and git dirs' config and hooks, and guards the folders above them", () => {
    const nested = {
      held: ['/r/lib/sub/.git', '/r/.git/modules/sub/config', '/r/.git/modules/sub/hooks'],
      guarded: ['/r/.git/modules'],
    };
    const mounts = orderedMounts(boxPolicy({ ...main, nested }, none));
    for (const path of ['/r/lib/sub/.git', '/r/.git/modules/sub/config', '/r/.git/modules/sub/hooks/post-commit'])
      expect(accessOf(mounts, path), path).toBe('read');
    for (const path of ['/r/lib/sub/src/x.c', '/r/.git/modules/sub/objects/ab', '/r/.git/modules/other/HEAD'])
      expect(accessOf(mounts, path), path).toBe('write');
    const guards = mounts.filter((mount) => mount.access === 'write').map((mount) => mount.path);
    expect(guards).toEqual(expect.arrayContaining(['/r/lib', '/r/lib/sub', '/r/.git/modules', '/r/.git/modules/sub']));
  });

  it("puts the user's read-only and hidden paths over the defaults, and their writable ones beside them", () => {
    const mounts = orderedMounts(
      boxPolicy(main, { write: ['/data/shared'], readOnly: ['/r/vendor'], hidden: ['/r/.env', '/h/.claude/secret'] }),
    );
    expect(accessOf(mounts, '/data/shared/x')).toBe('write');
    expect(accessOf(mounts, '/r/vendor/lib.js')).toBe('read');
    expect(accessOf(mounts, '/r/.env')).toBe('hidden');
    expect(accessOf(mounts, '/h/.claude/secret')).toBe('hidden');
    expect(accessOf(mounts, '/h/.claude/other')).toBe('write');
  });
});

describe('packageOf', () => {
  it("is the nearest folder above a client's file with a package.json, scoped or not; else the file's folder", async () => {
    const root = await mkdtemp(join(tmpdir(), 'ralph-package-of-'));
    const scoped = join(root, 'node_modules', '@anthropic-ai', 'claude-code');
    const checkout = join(root, 'ralph');
    await mkdir(join(scoped, 'vendor'), { recursive: true });
    await mkdir(join(checkout, 'bin'), { recursive: true });
    await mkdir(join(root, 'loose'));
    await writeFile(join(scoped, 'package.json'), '{}');
    await writeFile(join(checkout, 'package.json'), '{}');
    expect(await packageOf(join(scoped, 'vendor', 'rg'))).toBe(scoped);
    expect(await packageOf(join(checkout, 'bin', 'scripted-agent.js'))).toBe(checkout);
    expect(await packageOf(join(root, 'loose', 'claude'))).toBe(join(root, 'loose'));
  });
});

describe('installOf', () => {
  it('is the outermost node_modules above a package (its dependencies beside it); else the package', () => {
    expect(installOf('/tmp/p/node_modules/@openai/codex')).toBe('/tmp/p/node_modules');
    expect(installOf('/tmp/p/node_modules/a/node_modules/b')).toBe('/tmp/p/node_modules');
    expect(installOf('/tmp/checkout/ralph')).toBe('/tmp/checkout/ralph');
  });
});
