import type { GateKind } from './types.js';

const KINDS: Record<string, GateKind> = {
  build: 'build',
  lint: 'lint',
  tests: 'tests',
  test: 'tests',
  typecheck: 'typecheck',
};

/**
 * The kind of a gate from its name: `build`, `lint`, `tests` (or `test`), `typecheck`, also as
 * the first word of a longer name (`tests-e2e`, `lint:css`); anything else is custom.
 */
export function gateKind(name: string): GateKind {
  const word =
    name
      .trim()
      .toLowerCase()
      .split(/[-:_ ./]/, 1)[0] ?? '';
  return KINDS[word] ?? 'custom';
}
