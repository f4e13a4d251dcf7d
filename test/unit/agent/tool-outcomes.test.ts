import { describe, expect, it } from 'vitest';
import { ToolOutcomes } from '../../../src/agent/tool-outcomes.js';

const result = (toolUseId: string, preview: string, isError = false) => ({ toolUseId, isError, preview });

describe('ToolOutcomes', () => {
  it('gives the last outcome of a signature, through the id its result names', () => {
    const outcomes = new ToolOutcomes();
    outcomes.called('t1', 'npm test');
    expect(outcomes.lastOutcome('npm test')).toBeUndefined();
    outcomes.returned(result('t1', 'FAIL 2 tests', true));
    outcomes.called('t2', 'npm test');
    outcomes.returned(result('t2', 'FAIL 1 test', true));
    expect(outcomes.lastOutcome('npm test')).toEqual({ isError: true, preview: 'FAIL 1 test' });
  });

  it('ignores a result for a call it never saw, or saw return already', () => {
    const outcomes = new ToolOutcomes();
    outcomes.returned(result('ghost', 'x'));
    outcomes.called('t1', 'ls');
    outcomes.returned(result('t1', 'a.ts'));
    outcomes.returned(result('t1', 'changed'));
    expect(outcomes.lastOutcome('ls')).toEqual({ isError: false, preview: 'a.ts' });
  });

  it('forgets the oldest calls still awaiting a result first', () => {
    const outcomes = new ToolOutcomes({ awaiting: 2, outcomes: 10 });
    outcomes.called('t1', 'one');
    outcomes.called('t2', 'two');
    outcomes.called('t3', 'three');
    for (const id of ['t1', 't2', 't3']) outcomes.returned(result(id, id));
    expect([outcomes.lastOutcome('one'), outcomes.lastOutcome('two'), outcomes.lastOutcome('three')]).toEqual([
      undefined,
      { isError: false, preview: 't2' },
      { isError: false, preview: 't3' },
    ]);
  });

  it('forgets the outcome updated longest ago first', () => {
    const outcomes = new ToolOutcomes({ awaiting: 10, outcomes: 2 });
    const call = (id: string, signature: string) => (outcomes.called(id, signature), outcomes.returned(result(id, id)));
    call('t1', 'a');
    call('t2', 'b');
    call('t3', 'a'); // a is the newest again
    call('t4', 'c');
    expect([outcomes.lastOutcome('a')?.preview, outcomes.lastOutcome('b'), outcomes.lastOutcome('c')?.preview]).toEqual(
      ['t3', undefined, 't4'],
    );
  });
});
