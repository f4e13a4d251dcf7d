import { describe, expect, it } from 'vitest';
import { gateOrderProblem } from '../../../src/gates/gate-order.js';

describe('gateOrderProblem', () => {
  it('accepts gates whose after names an earlier gate, and no gates at all', () => {
    expect(
      gateOrderProblem([{ name: 'build' }, { name: 'lint', after: 'build' }, { name: 'tests', after: 'lint' }]),
    ).toBeUndefined();
    expect(gateOrderProblem([])).toBeUndefined();
  });

  it.each([
    [[{ name: 'tests' }, { name: 'tests' }], 'gate "tests" is declared twice; give each gate its own name'],
    [[{ name: 'tests', after: 'biuld' }], 'gate "tests" has after: "biuld", but no gate is named "biuld"'],
    [
      [{ name: 'tests', after: 'build' }, { name: 'build' }],
      'gate "tests" has after: "build", but "build" comes later in the list; move it before "tests"',
    ],
    [[{ name: 'lint', after: 'lint' }], 'gate "lint" has after: "lint", but a gate cannot run after itself'],
  ])('names the gate in one line: %j', (specs, problem) => {
    expect(gateOrderProblem(specs)).toBe(problem);
  });
});
