import { describe, expect, it } from 'vitest';
import { cascadeSkipReason } from '../../../src/gates/cascade.js';
import type { GateOutcome } from '../../../src/gates/types.js';

const build = (status: 'passed' | 'failed' | 'skipped'): GateOutcome =>
  status === 'passed'
    ? { name: 'build', status, exitCode: 0, durationMs: 1, logPath: 'b.log' }
    : status === 'failed'
      ? { name: 'build', status, exitCode: 2, timedOut: false, durationMs: 1, logPath: 'b.log', details: [] }
      : { name: 'build', status, reason: 'after deps, which failed' };
const tests = { name: 'tests', command: 'npm test', after: 'build', timeoutMs: 1000 };

describe('cascadeSkipReason', () => {
  it('runs a gate without after, and one whose dependency passed', () => {
    expect(cascadeSkipReason({ name: 'lint', command: 'x', timeoutMs: 1 }, [build('failed')])).toBeUndefined();
    expect(cascadeSkipReason(tests, [build('passed')])).toBeUndefined();
  });

  it('skips a gate whose dependency failed or was itself skipped', () => {
    expect(cascadeSkipReason(tests, [build('failed')])).toBe('after build, which failed');
    expect(cascadeSkipReason(tests, [build('skipped')])).toBe('after build, which was skipped');
  });

  it('skips a gate whose dependency has not run', () => {
    expect(cascadeSkipReason(tests, [])).toBe('after build, which did not run before it');
  });
});
