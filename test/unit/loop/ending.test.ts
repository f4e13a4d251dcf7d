import { describe, expect, it } from 'vitest';
import { ioError, RalphError, type ErrorKind } from '../../../src/errors.js';
import { endingOf, exitCodeFor } from '../../../src/loop/termination.js';
import { recordOf } from '../../../src/loop/run-report.js';

describe('errors by kind: the kind alone decides the ending and its exit code', () => {
  it.each([
    ['usage', 'setup', 64],
    ['setup', 'setup', 64],
    ['io', 'io_error', 74],
    ['blocked', 'blocked', 2],
    ['decide', 'decide', 3],
    ['max_resumes', 'max_resumes', 4],
  ] as [ErrorKind, string, number][])('%s → reason %s, exit %i', (kind, reason, code) => {
    const record = recordOf(endingOf(new RalphError(kind, 'what went wrong', 'the fix')));
    expect(record).toMatchObject({ reason, exitCode: code, detail: 'what went wrong' });
  });

  it('a bug in ralph is internal_error, exit 70 (EX_SOFTWARE), its message the detail', () => {
    const record = recordOf({ reason: 'internal_error', message: 'TypeError: x is not a function' });
    expect(record).toEqual({ reason: 'internal_error', exitCode: 70, detail: 'TypeError: x is not a function' });
  });

  it('maps SIGHUP to 129, as shells report it', () => {
    expect(exitCodeFor({ reason: 'interrupted', signal: 'SIGHUP' })).toBe(129);
  });

  it('names the path and the OS error of an I/O fault, and keeps a RalphError as it is', () => {
    const fault = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    const error = ioError(fault, '/repo/ralph/logs/summary.csv', 'write');
    expect(error.kind).toBe('io');
    expect(error.message).toBe('cannot write /repo/ralph/logs/summary.csv: ENOSPC (no space left on device)');
    expect(error.hint).toContain('free space');
    const setup = new RalphError('setup', 'already explained');
    expect(ioError(setup, '/x', 'read')).toBe(setup);
  });
});
