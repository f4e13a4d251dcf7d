/** What integration needs of a task list (src/lists/task-lists.ts has the rest). */
export interface ListRef {
  name: string;
  branch: string;
  dependsOn: readonly string[];
}

/**
 * The lists in the order their branches are merged: every list after the lists it depends on, and
 * otherwise in the order given (by name). The lists were checked for cycles and unknown names when
 * they were found; a dependency outside `lists` is simply not waited for here.
 */
export function integrationOrder<T extends ListRef>(lists: readonly T[]): T[] {
  const byName = new Map(lists.map((list) => [list.name, list]));
  const ordered: T[] = [];
  const placed = new Set<string>();
  const place = (list: T, path: ReadonlySet<string>): void => {
    if (placed.has(list.name) || path.has(list.name)) return;
    const inner = new Set([...path, list.name]);
    for (const name of list.dependsOn) {
      const dependency = byName.get(name);
      if (dependency) place(dependency, inner);
    }
    placed.add(list.name);
    ordered.push(list);
  };
  for (const list of lists) place(list, new Set());
  return ordered;
}

/** Every list `list` depends on, directly or through others, in integration order. */
export function dependenciesOf<T extends ListRef>(list: ListRef, lists: readonly T[]): T[] {
  const byName = new Map(lists.map((other) => [other.name, other]));
  const needed = new Set<string>();
  const visit = (names: readonly string[]): void => {
    for (const name of names) {
      const dependency = byName.get(name);
      if (!dependency || needed.has(name) || name === list.name) continue;
      needed.add(name);
      visit(dependency.dependsOn);
    }
  };
  visit(list.dependsOn);
  return integrationOrder(lists.filter((other) => needed.has(other.name)));
}
