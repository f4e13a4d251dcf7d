import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RalphError } from '../../../src/errors.js';
import { backUp, resetPaths } from '../../../src/init/reset-files.js';

describe('resetPaths', () => {
  it('takes names, ralph/ paths and comma lists, once each', () => {
    expect(resetPaths(['tasks.json,prd.md', 'ralph/progress.txt', './ralph/tasks.json', ' config.json '])).toEqual([
      'ralph/tasks.json',
      'ralph/prd.md',
      'ralph/progress.txt',
      'ralph/config.json',
    ]);
  });

  it.each(['README.md', 'ralph/logs', '', 'config.schema.json'])(
    'refuses %j as a usage error naming the choices',
    (name) => {
      expect(() => resetPaths([name])).toThrow(RalphError);
      expect(() => resetPaths([name])).toThrow(/not a file ralph init writes for you/);
    },
  );
});

describe('backUp', () => {
  it('copies the file beside itself with the date, then -2, -3, never over an existing backup', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ralph-backup-'));
    const file = join(dir, 'tasks.json');
    const now = new Date(2026, 10, 26, 12);
    await writeFile(file, 'first\n');
    expect(await backUp(file, now)).toBe(`${file}.bak-2026-11-26`);
    await writeFile(file, 'second\n');
    expect(await backUp(file, now)).toBe(`${file}.bak-2026-11-26-2`);
    await writeFile(file, 'third\n');
    expect(await backUp(file, now)).toBe(`${file}.bak-2026-11-26-3`);
    expect(await readFile(`${file}.bak-2026-11-26`, 'utf8')).toBe('first\n');
    expect(await readFile(`${file}.bak-2026-11-26-2`, 'utf8')).toBe('second\n');
  });
});
