import { execFileSync } from 'node:child_process';
import { lstat, mkdir, mkdtemp, readFile, readlink, realpath, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  appendOwnFile,
  createOwnFile,
  openOwnFileForReading,
  readOwnFile,
  readOwnFileNoLink,
} from '../../../src/files/own-file.js';
import { replaceOwnFile } from '../../../src/files/replace-own-file.js';
import { MAX_READ_BYTES } from '../../../src/files/read-cap.js';

/** A repository root with ralph/logs, and a file outside it that a planted link points to. */
async function setUp() {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'ralph-own-file-')));
  await mkdir(join(root, 'ralph/logs'), { recursive: true });
  const outside = join(await mkdtemp(join(tmpdir(), 'ralph-outside-')), 'bashrc');
  await writeFile(outside, 'untouched\n');
  return { root, outside };
}

describe('writing one of ralph’s files', () => {
  it.each([
    ['appends', (root: string, path: string) => appendOwnFile(root, path, 'row\n')],
    ['replaces', (root: string, path: string) => replaceOwnFile(root, path, 'text\n')],
    ['creates', async (root: string, path: string) => (await createOwnFile(root, path)).close()],
  ])('%s never through a symbolic link: refused naming it and its target', async (_how, write) => {
    const { root, outside } = await setUp();
    const path = join(root, 'ralph/logs/summary.csv');
    await symlink(outside, path);
    await expect(write(root, path)).rejects.toMatchObject({
      kind: 'io',
      message: expect.stringContaining(`summary.csv is a symbolic link (to ${outside})`),
      hint: 'ralph writes only regular files it owns; remove the link',
    });
    expect(await readFile(outside, 'utf8')).toBe('untouched\n');
    expect(await readlink(path)).toBe(outside);
  });

  it('shows a link target’s control characters written out, never raw', async () => {
    const { root } = await setUp();
    const path = join(root, 'ralph/blocked.txt');
    await symlink('/tmp/\u001b]52;c;aGk=\u0007x', path);
    await expect(replaceOwnFile(root, path, 'text\n')).rejects.toMatchObject({
      message: expect.stringContaining('is a symbolic link (to /tmp/\\x1b]52;c;aGk=\\x07x)'),
    });
  });

  it('never into a linked ralph/logs: the folder is refused, nothing is written beyond it', async () => {
    const { root, outside } = await setUp();
    execFileSync('rm', ['-r', join(root, 'ralph/logs')]);
    await symlink(join(outside, '..'), join(root, 'ralph/logs'));
    await expect(appendOwnFile(root, join(root, 'ralph/logs/summary.csv'), 'row\n')).rejects.toMatchObject({
      kind: 'io',
      message: expect.stringContaining('logs is a symbolic link'),
    });
    expect(execFileSync('ls', [join(outside, '..')], { encoding: 'utf8' })).toBe('bashrc\n');
  });

  it('refuses a FIFO in place of a file it appends to, without waiting for a reader', async () => {
    const { root } = await setUp();
    const path = join(root, 'ralph/logs/summary.csv');
    execFileSync('mkfifo', [path]);
    await expect(appendOwnFile(root, path, 'row\n')).rejects.toMatchObject({
      kind: 'io',
      message: expect.stringContaining('summary.csv is a FIFO (named pipe), not a regular file'),
    });
  });

  it('replaces a regular file whole, makes missing folders, and leaves no temporary file', async () => {
    const { root } = await setUp();
    const path = join(root, 'ralph/new/state.json');
    await replaceOwnFile(root, path, 'one\n');
    await replaceOwnFile(root, path, 'two\n');
    expect(await readFile(path, 'utf8')).toBe('two\n');
    expect(execFileSync('ls', ['-A', join(root, 'ralph/new')], { encoding: 'utf8' })).toBe('state.json\n');
    await appendOwnFile(root, path, (empty) => (empty ? 'header\n' : 'three\n'));
    expect(await readFile(path, 'utf8')).toBe('two\nthree\n');
    expect((await lstat(path)).isFile()).toBe(true);
  });
});

describe('replacing one of ralph’s files twice at once', () => {
  const listing = (dir: string) => execFileSync('ls', ['-A', dir], { encoding: 'utf8' });

  it('leaves the text asked for last, whole, and no temporary file; neither replace fails', async () => {
    const { root } = await setUp();
    const path = join(root, 'ralph/state.json');
    // Nine under way at once: sharing one temporary name, they would take each other's file (ENOENT).
    const texts = ['first\n'.repeat(50_000), ...Array.from({ length: 8 }, (_, index) => `replace ${index}\n`)];
    await Promise.all(texts.map((text) => replaceOwnFile(root, path, text)));
    expect(await readFile(path, 'utf8')).toBe(texts.at(-1));
    expect(listing(join(root, 'ralph'))).toBe('logs\nstate.json\n');
  });
});

describe('reading one of ralph’s files', () => {
  it('refuses a FIFO at once (no writer needed), and a folder', async () => {
    const { root } = await setUp();
    execFileSync('mkfifo', [join(root, 'ralph/tasks.json')]);
    await expect(readOwnFile(join(root, 'ralph/tasks.json'))).rejects.toMatchObject({
      kind: 'io',
      message: expect.stringContaining('tasks.json is a FIFO (named pipe), not a regular file'),
    });
    await expect(openOwnFileForReading(join(root, 'ralph/logs'))).rejects.toMatchObject({
      message: expect.stringContaining('logs is a folder, not a regular file'),
    });
  });

  it('reads a regular file, through a link too; nothing there is undefined', async () => {
    const { root, outside } = await setUp();
    await symlink(outside, join(root, 'ralph/prompt.md'));
    expect(await readOwnFile(join(root, 'ralph/prompt.md'))).toBe('untouched\n');
    expect(await readOwnFile(join(root, 'ralph/missing.txt'))).toBeUndefined();
  });

  it('refuses a link where no link may be followed, saying that it reads, naming the target', async () => {
    const { root, outside } = await setUp();
    await symlink(outside, join(root, 'ralph/blocked.txt'));
    await expect(readOwnFileNoLink(join(root, 'ralph/blocked.txt'))).rejects.toMatchObject({
      kind: 'io',
      message: expect.stringContaining(`blocked.txt is a symbolic link (to ${outside})`),
      hint: 'ralph reads only regular files it owns; remove the link',
    });
  });

  it('refuses a file over the cap before reading it, whichever way it is read', async () => {
    const { root } = await setUp();
    const path = join(root, 'ralph/decide.txt');
    await writeFile(path, '');
    await truncate(path, MAX_READ_BYTES + 1);
    const refused = { kind: 'io', message: expect.stringContaining('decide.txt holds 67108865 bytes, more than') };
    await expect(readOwnFile(path)).rejects.toMatchObject(refused);
    await expect(readOwnFileNoLink(path)).rejects.toMatchObject(refused);
    await truncate(path, MAX_READ_BYTES);
    expect((await readOwnFile(path))?.length).toBe(MAX_READ_BYTES);
  });
});
