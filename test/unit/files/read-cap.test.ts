import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSmallRegularFile } from '../../../src/files/read-cap.js';

describe('a small regular file, read without waiting', () => {
  it('gives a file’s text and mode, and nothing for a FIFO, a folder, a missing file or one over the cap', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ralph-read-cap-'));
    const file = join(dir, 'settings.json');
    await writeFile(file, '{"a":1}\n');
    await chmod(file, 0o640);
    execFileSync('mkfifo', [join(dir, 'fifo')]);

    expect(readSmallRegularFile(file, 1024)).toEqual({ text: '{"a":1}\n', mode: 0o640 });
    expect(readSmallRegularFile(file, 3)).toBeUndefined();
    expect(readSmallRegularFile(join(dir, 'fifo'), 1024)).toBeUndefined();
    expect(readSmallRegularFile(dir, 1024)).toBeUndefined();
    expect(readSmallRegularFile(join(dir, 'missing'), 1024)).toBeUndefined();
  });

  it('follows a link unless told not to', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ralph-read-cap-'));
    await writeFile(join(dir, 'target'), 'yours\n');
    await symlink(join(dir, 'target'), join(dir, 'link'));

    expect(readSmallRegularFile(join(dir, 'link'), 1024)?.text).toBe('yours\n');
    expect(readSmallRegularFile(join(dir, 'link'), 1024, { followLinks: false })).toBeUndefined();
  });
});
