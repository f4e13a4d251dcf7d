import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
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

/** What every file of the bundle requires, by specifier. */
function requiresOf(dist: string): Set<string> {
  const specifiers = new Set<string>();
  for (const name of bundleFiles(dist))
    for (const [, specifier] of readFileSync(join(dist, name), 'utf8').matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g))
      specifiers.add(specifier!);
  return specifiers;
}

const bundleFiles = (dist: string) => readdirSync(dist).filter((file) => /^ralph(-.*)?\.cjs$/.test(file));

/** Loads a bundle's entry as bin/ralph.cjs does: with require(). */
const requireEntry = (dist: string) =>
  createRequire(import.meta.url)(join(dist, 'ralph.cjs')) as { main: () => Promise<number> };

describe('the bundle (scripts/bundle.mjs)', () => {
  it('is what bin/ralph.cjs loads, and leaves to Node only what every Node ralph supports can require()', () => {
    expect(readFileSync(join(PACKAGE_ROOT, 'bin/ralph.cjs'), 'utf8')).toContain("require('../dist/ralph.cjs')");
    const specifiers = requiresOf(DIST);
    const packages = Object.keys(
      (JSON.parse(readFileSync(join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { dependencies: object }).dependencies,
    );
    // Packages with a CommonJS entry are required by name; those that are ES modules alone are
    // copied in (require() of one needs Node 20.19), and so is what every start loads.
    expect(specifiers).toContain('csv-stringify/sync');
    for (const bundled of ['zod', 'd3-scale', 'd3-shape', 'commander', 'picocolors'])
      expect(
        [...specifiers].filter((specifier) => specifier.split('/')[0] === bundled),
        bundled,
      ).toEqual([]);
    for (const specifier of specifiers) {
      const local = /^\.\/ralph-[\w-]+\.cjs$/.test(specifier);
      const builtin = specifier.startsWith('node:') || builtinModules.includes(specifier);
      const dependency = packages.some((name) => specifier === name || specifier.startsWith(`${name}/`));
      expect({ specifier, known: local || builtin || dependency }).toEqual({ specifier, known: true });
    }
    // The code cache compiles chunks with vm.Script, where Node 20 gives import() nothing to load with.
    for (const name of bundleFiles(DIST))
      expect({ name, imports: /\bimport\(/.test(readFileSync(join(DIST, name), 'utf8')) }).toEqual({
        name,
        imports: false,
      });
  });

  it('bundles a dist/ in place, with a chunk for what is loaded on demand', async () => {
    const dist = tinyDist();
    const built = spawnSync(process.execPath, [BUNDLE_SCRIPT, dist], { cwd: PACKAGE_ROOT, encoding: 'utf8' });
    expect(built.status).toBe(0);
    expect(readdirSync(dist).filter((name) => name.startsWith('ralph-')).length).toBeGreaterThan(0);
    expect(await requireEntry(dist).main()).toBe(42);
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
      /^ralph: dist\/ralph\.cjs is not bundled \(rolldown could not bundle here: needs a newer Node\)/,
    );
    expect(await requireEntry(dist).main()).toBe(42);
  });

  it('falls back to the unbundled entry, saying so, where rolldown cannot be loaded', async () => {
    const dist = tinyDist();
    // As on a platform with no build of rolldown's native part.
    const built = bundleWithHook(dist, "throw new Error('no rolldown here');");
    expect(built.status).toBe(0);
    expect(built.stderr).toMatch(
      /^ralph: dist\/ralph\.cjs is not bundled \(rolldown cannot be loaded here: .*no rolldown here/,
    );
    expect(readFileSync(join(dist, 'ralph.cjs'), 'utf8')).toContain("import('./cli/main.js')");
    expect(await requireEntry(dist).main()).toBe(42);
    // The executable loads the code cache's entry first: without a bundle it does nothing.
    const { useCompileCache } = createRequire(import.meta.url)(join(dist, 'compile-cache.cjs')) as {
      useCompileCache: () => void;
    };
    expect(useCompileCache()).toBeUndefined();
  });
});
