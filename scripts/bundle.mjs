#!/usr/bin/env node
// The build's second step: ralph's own modules of dist/ (tsc's output) bundled into dist/ralph.cjs,
// with one chunk per dynamic import (a command, the report, the gates: loaded when used).
//
// Why: Node 20 loads an ES module graph a file at a time, and a run loaded some 200 of ralph's own
// modules before its first agent (bench/RESULTS.md, "The time to the first agent"). The npm
// packages stay outside (node_modules, loaded as they are): bundled into the same file they made
// the stream-json run's heap settle higher (bench/RESULTS.md), and they are loaded late anyway.
//
// The chunks sit in dist/ itself, one folder below the package root like every module of ralph's
// that finds package.json or templates/ from its own URL (src/package-info.ts, src/templates.ts).
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The folder to bundle, in place: the package's dist/ unless one is named (the tests' copy).
const dist = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const ENTRY = 'ralph.cjs';
const CACHE_ENTRY = 'compile-cache.cjs';

// An earlier build's chunks (their names change with their content) and the code cached for them.
for (const name of readdirSync(dist))
  if (/^ralph(?:-[\w-]+)?\.c?js$/.test(name) || name === CACHE_ENTRY || name === 'compile-cache')
    rmSync(join(dist, name), { recursive: true, force: true });

/** The code cache's entry where there is no bundle to cache (or no source for it): it does nothing. */
function writeCacheStub() {
  writeFileSync(join(dist, CACHE_ENTRY), "'use strict';\nexports.useCompileCache = () => undefined;\n");
}

/** The ES modules of dist/ as tsc wrote them, behind the same entry: for where rolldown cannot bundle. */
function unbundledEntry(why) {
  writeFileSync(
    join(dist, ENTRY),
    "'use strict';\nexports.main = async (argv) => (await import('./cli/main.js')).main(argv);\n",
  );
  writeCacheStub();
  console.error(`ralph: dist/${ENTRY} is not bundled (${why}); ralph works the same, only starts slower`);
}
let rolldown;
try {
  rolldown = await import('rolldown');
} catch (error) {
  unbundledEntry(`rolldown cannot be loaded here: ${String(error?.message ?? error).split('\n')[0]}`);
  process.exit(0);
}
/** The modules a module loads before it runs: its static imports, followed (none for a missing entry). */
function staticClosure(entry, into = new Set()) {
  if (into.has(entry) || !existsSync(entry)) return into;
  into.add(entry);
  const text = readFileSync(entry, 'utf8');
  for (const [, specifier] of text.matchAll(/^\s*(?:import|export)\s(?:[^;]*?\sfrom\s*)?['"](\.[^'"]+)['"]/gm))
    staticClosure(resolve(dirname(entry), specifier), into);
  return into;
}

// Each group is one chunk: a file per module group, not per module set that happens to share
// code, so a command loads a few files instead of dozens. What every command's start and
// `ralph status` need comes first; then the rest of what a run loads before its first agent.
const start = staticClosure(join(dist, 'cli/main.js'), staticClosure(join(dist, 'commands/status.js')));
// The schemas `ralph status` loads when there is a file to check (the task list, the last run's
// record): a chunk of their own, or they would come with the run's chunk, and with it some 60 of
// Node's modules that status never uses (http, net, readline…).
const files = [
  ...staticClosure(join(dist, 'files/tasks.js'), staticClosure(join(dist, 'files/last-run-schema.js'))),
].filter((id) => !start.has(id));
const run = [...staticClosure(join(dist, 'commands/run.js'))].filter((id) => !start.has(id) && !files.includes(id));
const groups = [
  { name: 'ralph-start', test: (id) => start.has(id), priority: 3 },
  { name: 'ralph-files', test: (id) => files.includes(id), priority: 2 },
  { name: 'ralph-run', test: (id) => run.includes(id), priority: 1 },
];

// The bundle is CommonJS: a start then does without the ES module loader, and its chunks can be
// compiled through V8's code cache (src/cli/compile-cache.ts). So a package stays outside only
// where every Node ralph supports can require() it; one that is an ES module alone (d3) is
// bundled in: require() of an ES module needs Node 20.19.
const manifest = join(dist, '..', 'package.json');
const dependencies = existsSync(manifest)
  ? Object.keys(JSON.parse(readFileSync(manifest, 'utf8')).dependencies ?? {})
  : [];
const requireHere = createRequire(manifest);

/** Whether require() finds CommonJS for the package: a .cjs file, or .js where "type" is not "module". */
function commonJsEntry(specifier) {
  let file;
  try {
    file = requireHere.resolve(specifier);
  } catch {
    return false;
  }
  if (/\.[cm]js$/.test(file)) return file.endsWith('.cjs');
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir))
    if (existsSync(join(dir, 'package.json')))
      return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).type !== 'module';
  return true;
}

// What every command loads at its start is bundled in too: compiled through the cache with the rest,
// instead of found, read and compiled file by file (commander is seven files).
const AT_EVERY_START = ['commander', 'picocolors'];
// zod is bundled too, the part of it ralph uses alone (src/files/zod-subset.ts): ralph's own modules
// import only its types, and load it through src/files/lazy-zod.ts.
const BUNDLED = [...AT_EVERY_START, 'zod'];

function external(id) {
  if (id.startsWith('.') || id.startsWith('/')) return false;
  if (id.startsWith('node:') || builtinModules.includes(id)) return true;
  const name = id.startsWith('@') ? id.split('/').slice(0, 2).join('/') : id.split('/')[0];
  return dependencies.includes(name) && !BUNDLED.includes(name) && commonJsEntry(id);
}

const cacheSource = join(dist, 'cli/compile-cache.js');
const zodSource = join(dist, 'files/zod-subset.js');
try {
  await rolldown.build({
    input: {
      ralph: join(dist, 'cli/main.js'),
      // zod's part that ralph uses, in a file of its own that src/files/lazy-zod.ts requires when needed.
      ...(existsSync(zodSource) ? { 'ralph-zod': zodSource } : {}),
      ...(existsSync(cacheSource) ? { 'compile-cache': cacheSource } : {}),
    },
    platform: 'node',
    external,
    logLevel: 'warn',
    output: {
      dir: dist,
      format: 'cjs',
      exports: 'named',
      strict: true,
      // import() in a chunk becomes require(): the code cache compiles chunks with vm.Script, where
      // Node 20 has no import() to give them.
      dynamicImportInCjs: false,
      entryFileNames: '[name].cjs',
      chunkFileNames: 'ralph-[hash].cjs',
      codeSplitting: { groups },
      sourcemap: false,
      // Comments are for the sources; parsing them again at every start is not.
      comments: false,
    },
  });
  if (!existsSync(cacheSource)) writeCacheStub();
} catch (error) {
  // rolldown needs Node 20.19 or later, where ralph needs only 20: an older one builds unbundled.
  unbundledEntry(`rolldown could not bundle here: ${String(error?.message ?? error).split('\n')[0]}`);
}
