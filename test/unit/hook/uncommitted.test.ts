import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isLoopOwned, listUncommitted, porcelainReader } from '../../../src/hook/uncommitted.js';

describe('porcelainReader', () => {
  it("reads NUL-separated entries split anywhere across chunks, skipping rename sources and ralph's files", () => {
    const output =
      ' M src/a.ts\0R  new name.ts\0old name.ts\0?? ralph/logs/hook.log\0?? ralph/.ralph-active\0?? dir/\0 D gone.ts\0';
    const reader = porcelainReader(10);
    const bytes = Buffer.from(output);
    for (let at = 0; at < bytes.length; at += 5) reader.push(bytes.subarray(at, at + 5));
    expect(reader.finish()).toEqual({ paths: ['src/a.ts', 'new name.ts', 'dir/', 'gone.ts'], total: 4 });
  });

  it('keeps only the first paths but counts them all', () => {
    const reader = porcelainReader(2);
    reader.push(Buffer.from('?? a\0?? b\0?? c\0?? d\0'));
    expect(reader.finish()).toEqual({ paths: ['a', 'b'], total: 4 });
  });

  it('keeps a multibyte character split between chunks whole', () => {
    const reader = porcelainReader(5);
    const bytes = Buffer.from('?? é.txt\0');
    reader.push(bytes.subarray(0, 4));
    reader.push(bytes.subarray(4));
    expect(reader.finish().paths).toEqual(['é.txt']);
  });
});

describe('isLoopOwned', () => {
  it.each([
    ['ralph/logs/iteration-001.log', true],
    ['ralph/logs/', true],
    ['ralph/.tasks-snapshot.json', true],
    ['ralph/state.json', true],
    ['ralph/.ralph-active.4242.tmp', true],
    ['ralph/state.json.4242.tmp', true],
    ['ralph/state.jsonx', false],
    ['ralph/tasks.json', false],
    ['ralph/logsx/a', false],
    ['src/ralph/state.json', false],
  ])('%s: %s', (path, owned) => expect(isLoopOwned(path)).toBe(owned));
});

describe('listUncommitted', () => {
  it('lists modified tracked and untracked files in a real repository, not ignored ones', async () => {
    const root = await mkdtemp(join(tmpdir(), 'ralph-uncommitted-'));
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t.invalid', ...args], { cwd: root });
    git('init', '-q');
    await writeFile(join(root, 'a.ts'), 'a\n');
    await writeFile(join(root, '.gitignore'), 'dist/\n');
    await mkdir(join(root, 'ralph'));
    await writeFile(join(root, 'ralph/tasks.json'), '{}\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'initial');
    expect(await listUncommitted(root, { timeoutMs: 10_000, keep: 10 })).toEqual({ paths: [], total: 0 });

    await writeFile(join(root, 'a.ts'), 'changed\n');
    await writeFile(join(root, 'new.txt'), 'new\n');
    await mkdir(join(root, 'dist'));
    await writeFile(join(root, 'dist/out.js'), '');
    // ralph's own files never count, even where no .gitignore covers them.
    await mkdir(join(root, 'ralph/logs'));
    await writeFile(join(root, 'ralph/logs/hook.log'), '');
    await writeFile(join(root, 'ralph/.tasks-snapshot.json'), '{}\n');
    expect(await listUncommitted(root, { timeoutMs: 10_000, keep: 10 })).toEqual({
      paths: ['a.ts', 'new.txt'],
      total: 2,
    });
  });

  it('fails, rather than hangs or guesses, outside a repository', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ralph-not-a-repo-'));
    await expect(listUncommitted(dir, { timeoutMs: 10_000, keep: 10 })).rejects.toThrow(
      /git status failed \(exit 128\)/,
    );
  });
});
