import { describe, expect, it } from 'vitest';
import { gateKind } from '../../../src/gates/gate-kind.js';
import { suggestionsFor } from '../../../src/gates/suggestions.js';

const gate = (name: string, timedOut = false) => ({
  name,
  command: `do ${name}`,
  timedOut,
  timeoutMs: 5_400_000,
  logPath: `ralph/logs/gates-002-${name}.log`,
});

describe('gateKind', () => {
  it.each([
    ['build', 'build'],
    ['lint', 'lint'],
    ['tests', 'tests'],
    ['test', 'tests'],
    ['typecheck', 'typecheck'],
    ['tests-e2e', 'tests'],
    ['lint:css', 'lint'],
    ['Build', 'build'],
    ['security-audit', 'custom'],
    ['testing', 'custom'],
  ])('%s is a %s gate', (name, kind) => {
    expect(gateKind(name)).toBe(kind);
  });
});

describe('suggestionsFor', () => {
  it.each([
    ['build', 'Fix the build errors listed above first'],
    ['lint', 'Fix each reported problem'],
    ['tests', 'Review the failing test assertions'],
    ['test', 'Review the failing test assertions'],
    ['typecheck', 'Fix the type errors'],
    ['docs', 'Read the issues above and fix their cause'],
  ])('gives a %s gate 2 to 4 actions of its own kind, ending with its full log', (name, first) => {
    const suggestions = suggestionsFor([gate(name)]);
    expect(suggestions[0]).toContain(first);
    expect(suggestions.length).toBeGreaterThanOrEqual(2);
    expect(suggestions.length).toBeLessThanOrEqual(4);
    expect(suggestions.some((suggestion) => suggestion.includes(`\`do ${name}\``))).toBe(true);
    expect(suggestions.at(-1)).toBe(`Read the full log: ralph/logs/gates-002-${name}.log`);
  });

  it('tells a gate that timed out to look for what hangs', () => {
    expect(suggestionsFor([gate('tests', true)])[0]).toBe(
      'Find what keeps `do tests` running past 1h30m: a watch mode, a server or process left running, a prompt waiting for input, an endless loop',
    );
  });

  it('names the gate of each action when several failed, then each log', () => {
    const suggestions = suggestionsFor([gate('lint'), gate('tests')]);
    expect(suggestions[0]).toBe('lint: Fix each reported problem at its file and line');
    expect(suggestions.slice(-2)).toEqual([
      'Read the full log of lint: ralph/logs/gates-002-lint.log',
      'Read the full log of tests: ralph/logs/gates-002-tests.log',
    ]);
  });
});
