import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';
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
    'process',
    'box',
    'config',
    'files',
    'gates',
    'git',
    'lists',
    'integrate',
    'hook',
    'init',
    'status',
    'report',
    'answer',
    'ui',
    'text',
    'demo',
    'templates.ts',
    'package-info.ts',
  ],
  ['commands', 'run-lifecycle', 'outlets', 'parallel'],
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
