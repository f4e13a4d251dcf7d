import { describe, expect, it } from 'vitest';
import { RalphError } from '../../../src/errors.js';
import { endingOfError } from '../../../src/run-lifecycle/finish-run.js';

/** An OS error as node's fs raises it. */
function errno(code: string, message: string, path?: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}`), { code, ...(path ? { path } : {}) });
}

describe('endingOfError', () => {
  it('a RalphError ends the run by its kind, and is kept as the error to show', () => {
    const error = new RalphError('setup', 'ralph/tasks.json not found', 'run `ralph init`');
    expect(endingOfError(error)).toEqual({ ending: { reason: 'setup', message: 'ralph/tasks.json not found' }, error });
  });

  it('an OS error on a file (a full disk) is an io_error naming the file', () => {
    const { ending, error } = endingOfError(
      errno('ENOSPC', 'no space left on device, write', '/repo/ralph/logs/summary.csv'),
    );
    expect(ending.reason).toBe('io_error');
    expect(error.kind).toBe('io');
    expect(error.message).toContain('/repo/ralph/logs/summary.csv');
  });

  it("an OS error without a path still names ralph's files", () => {
    const { ending } = endingOfError(errno('EROFS', 'read-only file system, open'));
    expect(ending).toMatchObject({ reason: 'io_error' });
    expect((ending as { message: string }).message).toContain("one of ralph's files");
  });

  it('anything else is a bug, and is thrown on', () => {
    const bug = new TypeError('undefined is not a function');
    expect(() => endingOfError(bug)).toThrow(bug);
  });
});
