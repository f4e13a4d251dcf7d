import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { unlessMissing } from '../../../src/files/missing-file.js';

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
