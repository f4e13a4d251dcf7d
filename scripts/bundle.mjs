#!/usr/bin/env node
// The build's second step: ralph's own modules of dist/ (tsc's output) bundled into dist/ralph.js,
// with one chunk per dynamic import (a command, the report, the gates: loaded when used).
//
// Why: Node 20 loads an ES module graph a file at a time, and a run loaded some 200 of ralph's own
// modules before its first agent (bench/RESULTS.md, "The time to the first agent"). The npm
// packages stay outside (node_modules, loaded as they are): bundled into the same file they made
// the stream-json run's heap settle higher (bench/RESULTS.md), and they are loaded late anyway.
//
// The chunks sit in dist/ itself, one folder below the package root like every module of ralph's
// that finds package.json or templates/ from its own URL (src/package-info.ts, src/templates.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// The folder to bundle, in place: the package's dist/ unless one is named (the tests' copy).
const dist = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const ENTRY = 'ralph.js';

/** The same exports from dist/cli/main.js, unbundled: for a machine with no build of rolldown. */
function unbundledEntry(why) {
  writeFileSync(join(dist, ENTRY), "export * from './cli/main.js';\n");
  console.error(`ralph: dist/${ENTRY} is not bundled (${why}); ralph works the same, only starts slower`);
}

let rolldown;
try {
  rolldown = await import('rolldown');
} catch (error) {
  unbundledEntry(`rolldown cannot be loaded here: ${String(error?.message ?? error).split('\n')[0]}`);
  process.exit(0);
}
/** The modules a module loads before it runs: its static imports, followed. */
function staticClosure(entry, into = new Set()) {
  if (into.has(entry)) return into;
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
const run = [...staticClosure(join(dist, 'commands/run.js'))].filter((id) => !start.has(id));
const groups = [
  { name: 'ralph-start', test: (id) => start.has(id), priority: 2 },
  { name: 'ralph-run', test: (id) => run.includes(id), priority: 1 },
];

try {
  await rolldown.build({
    input: { ralph: join(dist, 'cli/main.js') },
    platform: 'node',
    // Anything not a relative path is a package or a Node built-in: left to Node to load.
    external: [/^[^./]/],
    logLevel: 'warn',
    output: {
      dir: dist,
      format: 'esm',
      entryFileNames: '[name].js',
      chunkFileNames: 'ralph-[hash].js',
      codeSplitting: { groups },
      sourcemap: false,
      // Comments are for the sources; parsing them again at every start is not.
      comments: false,
    },
  });
} catch (error) {
  // rolldown needs Node 20.19 or later, where ralph needs only 20: an older one builds unbundled.
  unbundledEntry(`rolldown could not bundle here: ${String(error?.message ?? error).split('\n')[0]}`);
}
