import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../helpers/e2e.js';

const BUNDLE_SCRIPT = join(PACKAGE_ROOT, 'scripts/bundle.mjs');
const DIST = join(PACKAGE_ROOT, 'dist');

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A dist/ shaped like ralph's: a CLI entry that loads its commands on demand, and code they share. */
function tinyDist(): string {
  const dist = mkdtempSync(join(tmpdir(), 'ralph-bundle-'));
  made.push(dist);
  const files: Record<string, string> = {
    'cli/main.js':
      "import { sep } from 'node:path';\nexport async function main() { return (await import('../commands/run.js')).answer + (sep ? 0 : 1); }\n",
    'commands/run.js': "import { base } from '../shared.js';\nexport const answer = base + 2;\n",
    'commands/status.js': "import { base } from '../shared.js';\nexport const shown = base;\n",
    'shared.js': 'export const base = 40;\n',
  };
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(dist, path, '..'), { recursive: true });
    writeFileSync(join(dist, path), text);
  }
  return dist;
}

/** What every file of the bundle imports, by specifier. */
function importsOf(dist: string): Set<string> {
  const specifiers = new Set<string>();
  for (const name of readdirSync(dist).filter((file) => /^ralph(-.*)?\.js$/.test(file)))
    for (const [, specifier] of readFileSync(join(dist, name), 'utf8').matchAll(
      /(?:^|[\s;])(?:import|export)\b[^'"]*?from\s*["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']\s*\)/gm,
    ))
      if (specifier !== undefined) specifiers.add(specifier);
  return specifiers;
}

describe('the bundle (scripts/bundle.mjs)', () => {
  it('is what bin/ralph.js loads, and leaves every npm package and Node built-in to Node', () => {
    expect(readFileSync(join(PACKAGE_ROOT, 'bin/ralph.js'), 'utf8')).toContain("from '../dist/ralph.js'");
    const specifiers = importsOf(DIST);
    const packages = Object.keys(
      (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { dependencies: object }).dependencies,
    );
    // The packages the start of every command needs are imported by name, not copied in.
    expect(specifiers).toContain('commander');
    expect(specifiers).toContain('picocolors');
    for (const specifier of specifiers) {
      const local = /^\.\/ralph-[\w-]+\.js$/.test(specifier);
      const builtin = specifier.startsWith('node:') || builtinModules.includes(specifier);
      const dependency = packages.some((name) => specifier === name || specifier.startsWith(`${name}/`));
      expect({ specifier, known: local || builtin || dependency }).toEqual({ specifier, known: true });
    }
  });

  it('bundles a dist/ in place, with a chunk for what is loaded on demand', async () => {
    const dist = tinyDist();
    const built = spawnSync(process.execPath, [BUNDLE_SCRIPT, dist], { cwd: PACKAGE_ROOT, encoding: 'utf8' });
    expect(built.status).toBe(0);
    expect(readdirSync(dist).filter((name) => name.startsWith('ralph-')).length).toBeGreaterThan(0);
    const { main } = (await import(join(dist, 'ralph.js'))) as { main: () => Promise<number> };
    expect(await main()).toBe(42);
  });

  /** Runs the bundle script with rolldown's resolution replaced by a hook's. */
  function bundleWithHook(dist: string, resolveRolldown: string) {
    const hook = `data:text/javascript,${encodeURIComponent(
      `export async function resolve(s, c, n) { if (s === 'rolldown') { ${resolveRolldown} } return n(s, c); }`,
    )}`;
    const register = `data:text/javascript,${encodeURIComponent(
      `import { register } from 'node:module'; register(${JSON.stringify(hook)});`,
    )}`;
    return spawnSync(process.execPath, ['--import', register, BUNDLE_SCRIPT, dist], {
      cwd: PACKAGE_ROOT,
      encoding: 'utf8',
    });
  }

  it('falls back to the unbundled entry where rolldown loads but cannot bundle (a Node it does not support)', async () => {
    const dist = tinyDist();
    const failing = `data:text/javascript,${encodeURIComponent("export async function build() { throw new Error('needs a newer Node'); }")}`;
    const built = bundleWithHook(dist, `return { url: ${JSON.stringify(failing)}, shortCircuit: true };`);
    expect(built.status).toBe(0);
    expect(built.stderr).toMatch(
      /^ralph: dist\/ralph\.js is not bundled \(rolldown could not bundle here: needs a newer Node\)/,
    );
    const { main } = (await import(join(dist, 'ralph.js'))) as { main: () => Promise<number> };
    expect(await main()).toBe(42);
  });

  it('falls back to the unbundled entry, saying so, where rolldown cannot be loaded', async () => {
    const dist = tinyDist();
    // As on a platform with no build of rolldown's native part.
    const built = bundleWithHook(dist, "throw new Error('no rolldown here');");
    expect(built.status).toBe(0);
    expect(built.stderr).toMatch(
      /^ralph: dist\/ralph\.js is not bundled \(rolldown cannot be loaded here: .*no rolldown here/,
    );
    expect(readFileSync(join(dist, 'ralph.js'), 'utf8')).toBe("export * from './cli/main.js';\n");
    const { main } = (await import(join(dist, 'ralph.js'))) as { main: () => Promise<number> };
    expect(await main()).toBe(42);
  });
});
