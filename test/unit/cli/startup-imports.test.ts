import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../../src');
// Each of these takes 20–120 ms to load: only the commands that use them may pull them in.
const HEAVY = ['zod', 'execa', 'simple-git', 'luxon', 'csv-stringify'];

/** What a module loads before it runs: its static imports, followed through src/ (type-only ones are erased). */
function staticImports(entry: string): { packages: Set<string>; modules: Set<string> } {
  const packages = new Set<string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    for (const [, specifier] of text.matchAll(/^(?:import|export)\s+(?!type\b)(?:[^;]*?from\s+)?'([^']+)'/gm)) {
      if (specifier!.startsWith('.')) visit(resolve(dirname(file), specifier!.replace(/\.js$/, '.ts')));
      else if (!specifier!.startsWith('node:')) packages.add(specifier!.split('/')[0]!);
    }
  };
  visit(entry);
  return { packages, modules: new Set([...seen].map((file) => file.slice(SRC.length + 1))) };
}

describe('start-up', () => {
  it('the CLI entry loads none of the heavy packages before a command runs', () => {
    const { packages } = staticImports(join(SRC, 'cli/main.ts'));
    expect(packages).toContain('commander');
    expect(HEAVY.filter((name) => packages.has(name))).toEqual([]);
  });

  it('ralph status loads none of the heavy packages, nor the agent dialects, for the usual files', () => {
    const { packages, modules } = staticImports(join(SRC, 'commands/status.ts'));
    expect(HEAVY.filter((name) => packages.has(name))).toEqual([]);
    expect([...modules].filter((module) => module.startsWith('agent/') || module.startsWith('config/'))).toEqual([]);
  });

  it('a run loads the gate runner, execa and luxon only when it needs them', () => {
    const { packages, modules } = staticImports(join(SRC, 'commands/run.ts'));
    // The scan sees a run's packages: its absence of execa below says something.
    expect(packages).toContain('picocolors');
    // execa is ~125 modules, ~100 ms: the git commands, --version and preflight queries before the
    // first agent use node's own spawn (process/run-captured.ts); gates and cmd: targets load it.
    expect(packages).not.toContain('execa');
    expect(packages).not.toContain('luxon');
    expect(
      [...modules].filter((module) => module.startsWith('gates/run-') || module === 'ui/github-actions.ts'),
    ).toEqual([]);
  });

  it('a run starts its first agent without the report, d3, csv-stringify, --dry-run or --worktree code', () => {
    const { packages, modules } = staticImports(join(SRC, 'commands/run.ts'));
    expect(['d3-scale', 'd3-shape', 'csv-stringify'].filter((name) => packages.has(name))).toEqual([]);
    const later = ['commands/report.ts', 'run-lifecycle/dry-run.ts', 'lists/list-worktree.ts'];
    expect([...modules].filter((module) => module.startsWith('report/') || later.includes(module))).toEqual([]);
  });
});
