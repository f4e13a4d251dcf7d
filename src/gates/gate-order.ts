/**
 * What is wrong with the order of the configured gates, as one line naming the gate: a name used
 * twice, or an `after` that names no gate, the gate itself, or one later in the list (gates run
 * in list order, so it would not have run yet). Undefined when the list is fine.
 */
export function gateOrderProblem(specs: readonly { name: string; after?: string }[]): string | undefined {
  const seen = new Set<string>();
  const all = new Set(specs.map((spec) => spec.name));
  for (const spec of specs) {
    if (seen.has(spec.name)) return `gate "${spec.name}" is declared twice; give each gate its own name`;
    const after = spec.after;
    if (after !== undefined) {
      if (after === spec.name) return `gate "${spec.name}" has after: "${after}", but a gate cannot run after itself`;
      if (!all.has(after)) return `gate "${spec.name}" has after: "${after}", but no gate is named "${after}"`;
      if (!seen.has(after)) {
        return `gate "${spec.name}" has after: "${after}", but "${after}" comes later in the list; move it before "${spec.name}"`;
      }
    }
    seen.add(spec.name);
  }
  return undefined;
}
