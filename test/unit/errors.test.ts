import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rename, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorLine, knownError, ownFile, RalphError } from '../../src/errors.js';

/** The error node's fs really raises for `work`. */
async function failureOf(work: () => Promise<unknown>): Promise<unknown> {
  return work().then(
    () => expect.unreachable('the file operation should fail'),
    (error: unknown) => error,
  );
}

describe('knownError: what the user can act on', () => {
  it('a RalphError is itself', () => {
    const error = new RalphError('setup', 'ralph/tasks.json not found', 'run `ralph init`');
    expect(knownError(error)).toBe(error);
  });

  it('a file that cannot be opened names the file, and open (a read and a write both start so)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ralph-errors-'));
    const error = await failureOf(() => readFile(join(dir, 'absent.json'), 'utf8'));
    // readFile fails at open(2): ralph cannot tell a read from a write there.
    expect(errorLine(knownError(error)!)).toBe(
      `ralph: cannot open ${join(dir, 'absent.json')}: ENOENT (no such file or directory) — a file or folder on that path is missing: restore it, then run again`,
    );
  });

  it('a rename names where the file was going (dest), as a write', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ralph-errors-'));
    await writeFile(join(dir, 'state.json.tmp'), '{}');
    const error = await failureOf(() => rename(join(dir, 'state.json.tmp'), join(dir, 'gone', 'state.json')));
    expect(knownError(error)).toMatchObject({
      kind: 'io',
      message: `cannot write ${join(dir, 'gone', 'state.json')}: ENOENT (no such file or directory)`,
    });
  });

  it('a program that cannot be started is a set-up error naming it, not a file fault', async () => {
    const error = await failureOf(
      () =>
        new Promise((resolve, reject) => {
          const child = spawn('no-such-program-of-ralph', [], { stdio: 'ignore' });
          child.on('error', reject);
          child.on('exit', resolve);
        }),
    );
    expect(knownError(error)).toMatchObject({
      kind: 'setup',
      message: 'cannot start no-such-program-of-ralph: not found on PATH',
      hint: 'install it, or put it on PATH',
    });
  });

  it('a bug is no error the user can act on', () => {
    expect(knownError(new TypeError('undefined is not a function'))).toBeUndefined();
    expect(knownError('a thrown string')).toBeUndefined();
    expect(knownError(Object.assign(new Error('odd'), { code: 'ERR_INVALID_ARG_TYPE' }))).toBeUndefined();
  });
});

describe('ownFile', () => {
  it("an OS error becomes an io error naming ralph's path, not the temporary one", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ralph-errors-'));
    const lock = join(dir, 'missing', '.ralph-active');
    const failure = await failureOf(() => ownFile(lock, 'write', () => writeFile(`${lock}.1.new`, '{}')));
    expect(failure).toBeInstanceOf(RalphError);
    expect(failure).toMatchObject({ kind: 'io', message: `cannot write ${lock}: ENOENT (no such file or directory)` });
  });

  it('a RalphError passes as it is, and a bug stays a bug', async () => {
    const refusal = new RalphError('setup', 'another ralph run is active in this repository');
    await expect(ownFile('/x', 'write', () => Promise.reject(refusal))).rejects.toBe(refusal);
    const bug = new TypeError('undefined is not a function');
    await expect(ownFile('/x', 'write', () => Promise.reject(bug))).rejects.toBe(bug);
  });
});
