import { mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pathExists, unlessMissing } from '../../../src/files/missing-file.js';

describe('unlessMissing', () => {
  it('gives what the operation returned when the file is there', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ralph-missing-'));
    await writeFile(join(dir, 'a.txt'), 'hello');
    expect(await unlessMissing(() => readFile(join(dir, 'a.txt'), 'utf8'))).toBe('hello');
  });

  it('gives undefined when the file does not exist', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ralph-missing-'));
    expect(await unlessMissing(() => readFile(join(dir, 'absent.txt'), 'utf8'))).toBeUndefined();
  });

  it('lets any other failure through: a folder where the file should be is not a missing file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ralph-missing-'));
    await expect(unlessMissing(() => readFile(dir, 'utf8'))).rejects.toMatchObject({ code: 'EISDIR' });
  });
});

describe('pathExists', () => {
  it('sees a file and a folder, and nothing where nothing is', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ralph-exists-'));
    await writeFile(join(dir, 'MERGE_HEAD'), 'abc\n');
    await mkdir(join(dir, 'ralph'));
    expect(await pathExists(join(dir, 'MERGE_HEAD'))).toBe(true);
    expect(await pathExists(join(dir, 'ralph'))).toBe(true);
    expect(await pathExists(join(dir, 'absent'))).toBe(false);
  });

  it('only nothing there is false: any other refusal propagates, never read as a missing path', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ralph-exists-'));
    await writeFile(join(dir, 'file'), '');
    // A file where a folder should be: nothing can be below it.
    expect(await pathExists(join(dir, 'file', 'ralph'))).toBe(false);
    // A link to itself cannot be resolved (ELOOP), as a folder ralph may not enter cannot (EACCES,
    // which root, running this suite in CI, never meets).
    await symlink(join(dir, 'loop'), join(dir, 'loop'));
    await expect(pathExists(join(dir, 'loop'))).rejects.toMatchObject({ code: 'ELOOP' });
  });

  it('follows a link: a link to a folder is there, a dangling one is not', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ralph-exists-'));
    await mkdir(join(dir, 'real'));
    await symlink(join(dir, 'real'), join(dir, 'linked'));
    await symlink(join(dir, 'gone'), join(dir, 'dangling'));
    expect(await pathExists(join(dir, 'linked'))).toBe(true);
    expect(await pathExists(join(dir, 'dangling'))).toBe(false);
  });
});
