import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The floors of src/, drawn from its imports (type imports included): each module may import
 * its own floor and those below. CONTRIBUTING.md names them; eslint.config.js enforces the same.
 */
const FLOORS: readonly (readonly string[])[] = [
  ['domain', 'errors.ts'],
  ['loop'],
  [
    'agent',
    'config',
    'files',
    'gates',
    'git',
    'hook',
    'init',
    'status',
    'ui',
    'demo',
    'templates.ts',
    'package-info.ts',
  ],
  ['commands', 'run-lifecycle'],
  ['cli'],
];

const SRC = resolve(import.meta.dirname, '../../src');

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? modules(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** Every relative import of a module (static, dynamic and type-only), as paths under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)].map((match) => match[1]!);
  return specifiers.map((specifier) => relative(SRC, resolve(dirname(file), specifier)).replace(/\.js$/, '.ts'));
}

function floorOf(path: string): number {
  const top = path.split('/')[0]!;
  const floor = FLOORS.findIndex((names) => names.includes(top));
  if (floor === -1) throw new Error(`src/${path} is on no floor: add its folder to FLOORS (and to CONTRIBUTING.md)`);
  return floor;
}

const graph = new Map(modules(SRC).map((file) => [relative(SRC, file), importsOf(file)]));

describe('the architecture, drawn from the imports', () => {
  it('finds the modules and their imports', () => {
    expect(graph.size).toBeGreaterThan(50);
  });

  it('has no import that goes up a floor', () => {
    const upward = [...graph].flatMap(([from, targets]) =>
      targets.filter((to) => floorOf(to) > floorOf(from)).map((to) => `${from} → ${to}`),
    );
    expect(upward).toEqual([]);
  });

  it('has no import circles', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (node: string, path: string[]) => {
      if (state.get(node) === 'done') return;
      if (state.get(node) === 'open') {
        cycles.push([...path.slice(path.indexOf(node)), node].join(' → '));
        return;
      }
      state.set(node, 'open');
      for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
      state.set(node, 'done');
    };
    for (const node of graph.keys()) visit(node, []);
    expect(cycles).toEqual([]);
  });
});
