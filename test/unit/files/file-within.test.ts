import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readFileWithin } from '../../../src/files/file-within.js';
import { MAX_READ_BYTES } from '../../../src/files/read-cap.js';

/** A repository folder and a secret beside it, outside. */
function place() {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'ralph-within-')));
  const root = join(base, 'repo');
  mkdirSync(join(root, 'ralph'), { recursive: true });
  writeFileSync(join(base, 'id_rsa'), 'PRIVATE KEY\n');
  return { base, root };
}

describe('readFileWithin: what ralph reads of the agent outside the box stays inside the repository', () => {
  it('reads a file inside, and a link that stays inside', () => {
    const { root } = place();
    writeFileSync(join(root, 'ralph/tasks.json'), '{}');
    symlinkSync('tasks.json', join(root, 'ralph/other.json'));
    expect(readFileWithin(root, join(root, 'ralph/tasks.json'))).toBe('{}');
    expect(readFileWithin(root, join(root, 'ralph/other.json'))).toBe('{}');
  });

  it('is undefined for a file that is not there, and for a link that leads nowhere', () => {
    const { root } = place();
    expect(readFileWithin(root, join(root, 'ralph/tasks.json'))).toBeUndefined();
    symlinkSync('/nowhere/at/all', join(root, 'ralph/tasks.json'));
    expect(readFileWithin(root, join(root, 'ralph/tasks.json'))).toBeUndefined();
  });

  it('refuses a link out of the repository, and a folder on the way that leads out, naming where', () => {
    const { base, root } = place();
    symlinkSync(join(base, 'id_rsa'), join(root, 'ralph/tasks.json'));
    expect(() => readFileWithin(root, join(root, 'ralph/tasks.json'))).toThrow(
      expect.objectContaining({
        kind: 'io',
        message: expect.stringContaining(`leads outside the repository, to ${base}/id_rsa`),
      }),
    );
    symlinkSync(base, join(root, 'ralph/lists'));
    expect(() => readFileWithin(root, join(root, 'ralph/lists/id_rsa'))).toThrow(/leads outside the repository/);
  });

  it('refuses what is not a regular file inside, as ralph reads only regular files', () => {
    const { root } = place();
    execFileSync('mkfifo', [join(root, 'ralph/tasks.json')]);
    expect(() => readFileWithin(root, join(root, 'ralph/tasks.json'))).toThrow(
      /a FIFO \(named pipe\), not a regular file/,
    );
  });

  it('refuses a task list over the cap before reading it: one line naming it, the cap and the fix', () => {
    const { root } = place();
    const path = join(root, 'ralph/tasks.json');
    // Sparse: the size the agent can give a file for free, no disk or memory spent here.
    writeFileSync(path, '{}');
    truncateSync(path, MAX_READ_BYTES + 1);
    expect(() => readFileWithin(root, path)).toThrow(
      expect.objectContaining({
        kind: 'io',
        message: expect.stringMatching(
          /tasks\.json holds 67108865 bytes, more than the 64 MiB ralph reads of one file$/,
        ),
        hint: expect.stringContaining('restore it'),
      }),
    );
  });
});
