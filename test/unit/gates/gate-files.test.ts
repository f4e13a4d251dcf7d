import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fileSafeName, gateFiles } from '../../../src/gates/gate-files.js';

let logs: string;
beforeEach(async () => {
  logs = join(await mkdtemp(join(tmpdir(), 'ralph-gate-files-')), 'ralph', 'logs');
});
afterEach(async () => {
  await rm(join(logs, '../..'), { recursive: true, force: true });
});

describe('gateFiles', () => {
  it('numbers the files by iteration, creating the logs directory', async () => {
    expect(await gateFiles(logs, 7, ['build', 'tests'])).toEqual({
      logPaths: [join(logs, 'gates-007-build.log'), join(logs, 'gates-007-tests.log')],
      eventPath: join(logs, 'gates-007.json'),
    });
    expect((await gateFiles(logs, 1234, ['tests'])).eventPath).toBe(join(logs, 'gates-1234.json'));
  });

  it('gives a second run with the same number its own files', async () => {
    await gateFiles(logs, 3, []);
    await writeFile(join(logs, 'gates-003-tests.log'), '');
    expect(await gateFiles(logs, 3, ['tests'])).toEqual({
      logPaths: [join(logs, 'gates-003.2-tests.log')],
      eventPath: join(logs, 'gates-003.2.json'),
    });
    await writeFile(join(logs, 'gates-003.2.json'), '');
    expect((await gateFiles(logs, 3, ['tests'])).eventPath).toBe(join(logs, 'gates-003.3.json'));
    expect((await gateFiles(logs, 30, ['tests'])).eventPath).toBe(join(logs, 'gates-030.json'));
  });

  it('keeps two names that look alike once made safe apart', async () => {
    const { logPaths } = await gateFiles(logs, 1, ['unit tests', 'unit/tests']);
    expect(logPaths).toEqual([join(logs, 'gates-001-unit-tests.log'), join(logs, 'gates-001-unit-tests-2.log')]);
  });
});

describe('fileSafeName', () => {
  it.each([
    ['tests', 'tests'],
    ['e2e tests (slow)', 'e2e-tests-slow-'],
    ['../../etc/passwd', 'etc-passwd'],
    ['.hidden', 'hidden'],
    ['***', 'gate'],
    ['x'.repeat(100), 'x'.repeat(60)],
  ])('%s → %s', (name, safe) => {
    expect(fileSafeName(name)).toBe(safe);
  });
});
