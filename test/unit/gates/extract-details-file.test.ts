import { createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { extractDetailsFromFile, HEAD_BYTES, TAIL_BYTES } from '../../../src/gates/extract-details.js';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/gates');

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ralph-details-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Writes a log: `before`, then `noiseBytes` of progress lines, then `after`. */
async function writeLog(before: string, noiseBytes: number, after: string): Promise<string> {
  const path = join(dir, 'gate.log');
  const out = createWriteStream(path);
  out.write(before);
  const line = 'progress: still working on the next batch of records\n';
  const block = line.repeat(Math.ceil((64 * 1024) / line.length));
  for (let written = 0; written < noiseBytes; written += block.length) {
    if (!out.write(block)) await once(out, 'drain');
  }
  out.end(after);
  await once(out, 'finish');
  return path;
}

describe('extractDetailsFromFile', () => {
  it('reads a small log whole', async () => {
    const vitest = await readFile(join(FIXTURES, 'vitest.txt'), 'utf8');
    const path = await writeLog('', 0, vitest);
    expect(await extractDetailsFromFile(path)).toHaveLength(4);
  });

  it('reads the start and the end of a large log, where compilers and test summaries put their failures', async () => {
    const tsc = "src/a.ts(1,1): error TS2304: Cannot find name 'x'.\n";
    const pytest = await readFile(join(FIXTURES, 'pytest.txt'), 'utf8');
    const path = await writeLog(tsc, HEAD_BYTES + TAIL_BYTES + 1024 * 1024, pytest);
    expect(await extractDetailsFromFile(path)).toEqual([
      "src/a.ts(1,1): error TS2304: Cannot find name 'x'.",
      'tests/test_users.py::test_create_user: assert 500 == 201',
      "tests/test_users.py::TestValidation::test_rejects_empty_name: Failed: DID NOT RAISE <class 'ValueError'>",
      "tests/test_users.py::TestValidation::test_parses_body: KeyError: 'id'",
    ]);
  });

  it('falls back to the last lines of a large log it does not know', async () => {
    const path = await writeLog('', HEAD_BYTES + TAIL_BYTES, 'FATAL: disk full\n');
    const details = await extractDetailsFromFile(path);
    expect(details).toHaveLength(20);
    expect(details.at(-1)).toBe('FATAL: disk full');
  });
});
