import type { GateOutcome, GateSpec } from './types.js';

/**
 * Why a gate must be skipped given the outcomes so far, or undefined when it should run: a gate
 * with `after` runs only when that gate passed.
 */
export function cascadeSkipReason(spec: GateSpec, earlier: readonly GateOutcome[]): string | undefined {
  if (spec.after === undefined) return undefined;
  const dependency = earlier.find((outcome) => outcome.name === spec.after);
  if (!dependency) return `after ${spec.after}, which did not run before it`;
  if (dependency.status === 'failed') return `after ${spec.after}, which failed`;
  if (dependency.status === 'skipped') return `after ${spec.after}, which was skipped`;
  return undefined;
}
