import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { FLOORS } from '../../floors.js';

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

/** The folder of src/ a module is in (a module at the top is its own). */
const folderOf = (path: string) => path.split('/')[0]!;

function floorOf(path: string): number {
  const floor = FLOORS.findIndex(({ folders }) => folders.includes(folderOf(path)));
  if (floor === -1) throw new Error(`src/${path} is on no floor: add its folder to FLOORS in floors.js`);
  return floor;
}

const graph = new Map(modules(SRC).map((file) => [relative(SRC, file), importsOf(file)]));

/** One import of a module: `edge` is `from → to`. */
interface Import {
  from: string;
  to: string;
  edge: string;
}

const imports: Import[] = [...graph].flatMap(([from, targets]) =>
  targets.map((to) => ({ from, to, edge: `${from} → ${to}` })),
);
/** Every import but the known upward ones: what the floors and the folders' circles are checked on. */
const upward = ({ from, to }: Import) => floorOf(to) > floorOf(from);
/** An import, named with the floor at each end. */
const withFloors = ({ from, to }: Import) =>
  `${from} (${FLOORS[floorOf(from)]!.name}) → ${to} (${FLOORS[floorOf(to)]!.name})`;

/**
 * The circles between folders: the strongly connected components of the folder graph, each as its
 * edges, with one import that makes each edge.
 */
function folderCircles(edges: readonly Import[]): string[] {
  const next = new Map<string, Set<string>>();
  const example = new Map<string, string>();
  for (const { from, to, edge } of edges) {
    const [source, target] = [folderOf(from), folderOf(to)];
    if (source === target) continue;
    next.set(source, (next.get(source) ?? new Set()).add(target));
    if (!example.has(`${source} ${target}`)) example.set(`${source} ${target}`, edge);
  }
  return stronglyConnected(next)
    .filter((component) => component.length > 1)
    .map((component) =>
      component
        .flatMap((source) =>
          [...(next.get(source) ?? [])]
            .filter((target) => component.includes(target))
            .sort()
            .map((target) => `${source} → ${target} (${example.get(`${source} ${target}`)})`),
        )
        .join('; '),
    );
}

/** Tarjan's strongly connected components, each sorted by name. */
function stronglyConnected(next: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const components: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    for (const target of next.get(node) ?? []) {
      if (!index.has(target)) visit(target);
      if (stack.includes(target)) low.set(node, Math.min(low.get(node)!, low.get(target)!));
    }
    if (low.get(node) === index.get(node)) components.push(stack.splice(stack.indexOf(node)).sort());
  };
  for (const node of [...next.keys()].sort()) if (!index.has(node)) visit(node);
  return components;
}

describe('the architecture, drawn from the imports', () => {
  it('finds the modules and their imports', () => {
    expect(graph.size).toBeGreaterThan(50);
  });

  it('puts every folder of src/ on one floor, and no floor names a folder that is gone', () => {
    const present = readdirSync(SRC, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() || entry.name.endsWith('.ts'))
      .map((entry) => entry.name);
    const named = FLOORS.flatMap(({ folders }) => folders);
    expect(present.filter((name) => named.filter((folder) => folder === name).length !== 1)).toEqual([]);
    expect(named.filter((folder) => !present.includes(folder))).toEqual([]);
  });

  it('says in docs/development.md what every folder of src/ holds', () => {
    const text = readFileSync(resolve(SRC, '../docs/development.md'), 'utf8');
    const named = FLOORS.flatMap(({ folders }) => folders).map((folder) =>
      folder.endsWith('.ts') ? `src/${folder}` : `src/${folder}/`,
    );
    expect(named.filter((folder) => !text.includes(`| \`${folder}\` |`))).toEqual([]);
  });

  it('has no import that goes up a floor', () => {
    expect(imports.filter(upward).map(withFloors)).toEqual([]);
  });

  it('has no circle between folders', () => {
    expect(folderCircles(imports)).toEqual([]);
  });

  it('finds a circle between folders, with one import for each of its edges', () => {
    const made = (from: string, to: string): Import => ({ from, to, edge: `${from} → ${to}` });
    const edges = [
      made('a/x.ts', 'b/y.ts'),
      made('b/y.ts', 'c/z.ts'),
      made('c/z.ts', 'a/w.ts'),
      made('c/z.ts', 'd/v.ts'),
    ];
    expect(folderCircles([...edges, made('a/x.ts', 'a/w.ts'), made('d/v.ts', 'e.ts')])).toEqual([
      'a → b (a/x.ts → b/y.ts); b → c (b/y.ts → c/z.ts); c → a (c/z.ts → a/w.ts)',
    ]);
    expect(folderCircles(edges.slice(0, 2))).toEqual([]);
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

  it('keeps process supervision in its own room: only the agent and the commands import the agent', () => {
    // The lock, the gates, the screen and the files supervise processes through src/process/,
    // never by borrowing from the agent's room.
    // The config reads the table of agent kinds for `--agent`; nothing else of the agent's room.
    const allowed = new Set(['agent', 'commands', 'run-lifecycle', 'cli', 'demo']);
    const kindsOnly = (from: string, to: string) => from.startsWith('config/') && to === 'agent/dialects.ts';
    const borrowed = [...graph].flatMap(([from, targets]) =>
      allowed.has(from.split('/')[0]!)
        ? []
        : targets.filter((to) => to.startsWith('agent/') && !kindsOnly(from, to)).map((to) => `${from} → ${to}`),
    );
    expect(borrowed).toEqual([]);
  });
});

/** The house's size limits (CONTRIBUTING.md): small modules with one job, functions read in one sitting. */
const MAX_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 60;

/**
 * Every function in a module's text (declarations, methods, accessors, arrows, expressions) with
 * its length in lines.
 */
function functionsIn(text: string): { name: string; line: number; lines: number }[] {
  const source = ts.createSourceFile('module.ts', text, ts.ScriptTarget.Latest, true);
  const lineOf = (position: number) => source.getLineAndCharacterOfPosition(position).line + 1;
  const found: { name: string; line: number; lines: number }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const line = lineOf(node.getStart(source));
      const name = node.name && ts.isIdentifier(node.name) ? node.name.text : '(anonymous)';
      found.push({ name, line, lines: lineOf(node.getEnd()) - line + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the size of the rooms', () => {
  const files = modules(SRC);

  it(`has no file in src/ over ${MAX_FILE_LINES} lines`, () => {
    const long = files
      .map((file) => ({ file: relative(SRC, file), lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_FILE_LINES)
      .map(({ file, lines }) => `src/${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });

  it(`has no function in src/ over ${MAX_FUNCTION_LINES} lines`, () => {
    const long = files.flatMap((file) =>
      functionsIn(readFileSync(file, 'utf8'))
        .filter(({ lines }) => lines > MAX_FUNCTION_LINES)
        .map(({ name, line, lines }) => `src/${relative(SRC, file)}:${line} ${name}: ${lines} lines`),
    );
    expect(long).toEqual([]);
  });

  it('measures a function from its first line to its last, nested ones too', () => {
    const body = '  step();\n'.repeat(MAX_FUNCTION_LINES - 1);
    const text = `class A {\n  run() {\n    return () => 1;\n  }\n}\nexport function long() {\n${body}}\n`;
    expect(functionsIn(text)).toEqual([
      { name: 'run', line: 2, lines: 3 },
      { name: '(anonymous)', line: 3, lines: 1 },
      { name: 'long', line: 6, lines: MAX_FUNCTION_LINES + 1 },
    ]);
  });
});

/**
 * The agent clients' names, as a file would name them: the client, its company, its executable,
 * its variables (`CLAUDECODE`, `ANTHROPIC_API_KEY`), in code and in comments alike. `&amp;` is an
 * HTML entity, not the client.
 */
const CLIENT_NAME = /claude|anthropic|codex|gemini|opencode|(?<!&)\bamp\b/i;

describe('the agent clients, each in its own room', () => {
  const outside = modules(SRC)
    .map((file) => relative(SRC, file))
    .filter((path) => !path.startsWith('agent/'));

  it('has no file outside src/agent/ that names a client, in code or comments', () => {
    const naming = outside.filter((path) => CLIENT_NAME.test(readFileSync(join(SRC, path), 'utf8')));
    expect(naming).toEqual([]);
  });

  it('finds a client named anywhere in a line, an entity excepted', () => {
    expect(
      ['// runs Claude Code', 'env.CLAUDECODE', '`codex exec`', 'Gemini CLI', 'opencode-ai', 'Amp threads'].every(
        (line) => CLIENT_NAME.test(line),
      ),
    ).toBe(true);
    expect(CLIENT_NAME.test("'&': '&amp;'")).toBe(false);
    expect(CLIENT_NAME.test('example, sample, camp')).toBe(false);
  });
});
