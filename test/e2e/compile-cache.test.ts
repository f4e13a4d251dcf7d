import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import Module from 'node:module';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../helpers/e2e.js';

// The code cache of bin/ralph.cjs (src/cli/compile-cache.ts), as built into dist/compile-cache.cjs,
// on a small bundle of its own: what it keeps, that a start takes it, and that nothing it finds can
// stop a start.
const CACHE_ENTRY = join(PACKAGE_ROOT, 'dist/compile-cache.cjs');
const FOLDER = `${process.version}-${process.arch}`;
// Node 22 and later keep the cache themselves (module.enableCompileCache), in a layout of their own.
const BUILT_IN = typeof (Module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A dist/ with a bundle's shape: an entry, a chunk it requires, and a file that is no chunk. */
function tinyBundle(): string {
  const dist = mkdtempSync(join(tmpdir(), 'ralph-compile-cache-'));
  made.push(dist);
  writeFileSync(
    join(dist, 'ralph.cjs'),
    [
      "'use strict';",
      "const { answer } = require('./ralph-chunk.cjs');",
      "const helper = require('./helper.cjs');",
      // What CommonJS gives a module: its own exports as `this`, its file and folder, strict mode.
      'exports.main = () => [answer(), helper(), this === module.exports, __filename, __dirname, (function () { return this; })()];',
      '',
    ].join('\n'),
  );
  writeFileSync(join(dist, 'ralph-chunk.cjs'), "'use strict';\nexports.answer = () => 42;\n");
  writeFileSync(join(dist, 'helper.cjs'), "'use strict';\nmodule.exports = () => 'helped';\n");
  return dist;
}

/** Starts Node as bin/ralph.cjs starts: the cache first, then the bundle's entry, for `command`. */
function start(dist: string, command = 'run', env: NodeJS.ProcessEnv = {}) {
  const script = [
    `require(${JSON.stringify(CACHE_ENTRY)}).useCompileCache(${JSON.stringify(dist)}, process.argv);`,
    `console.log(JSON.stringify(require(${JSON.stringify(join(dist, 'ralph.cjs'))}).main()));`,
  ].join('\n');
  const result = spawnSync(process.execPath, ['-e', script, 'ralph', command], {
    encoding: 'utf8',
    env: { ...withoutDisable(process.env), ...env },
    timeout: 20_000,
  });
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return JSON.parse(result.stdout) as unknown[];
}

/** The environment without NODE_DISABLE_COMPILE_CACHE: set at all, even empty, Node 22's own cache is off. */
function withoutDisable(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { NODE_DISABLE_COMPILE_CACHE: _off, ...rest } = env;
  return rest;
}

/** The cache files, without the hash of the text each stands for. */
const cacheFiles = (dist: string) =>
  existsSync(join(dist, 'compile-cache', FOLDER))
    ? readdirSync(join(dist, 'compile-cache', FOLDER))
        .map((name) => name.replace(/\.[0-9a-f]{12}$/, ''))
        .sort()
    : [];

/** Where the cache of a file of the bundle goes, for a command. */
const cacheFile = (dist: string, name: string, command = 'run') =>
  join(
    dist,
    'compile-cache',
    FOLDER,
    `${name}.${command}.${createHash('sha1')
      .update(readFileSync(join(dist, name), 'utf8'))
      .digest('hex')
      .slice(0, 12)}`,
  );

describe('the code cache (bin/ralph.cjs)', () => {
  it.runIf(BUILT_IN)("leaves the cache to Node's own, in the same folder", () => {
    const dist = tinyBundle();
    expect(start(dist)[0]).toBe(42);
    expect(readdirSync(join(dist, 'compile-cache')).length).toBeGreaterThan(0);
  });

  it.skipIf(BUILT_IN)('runs a chunk as CommonJS runs it, and keeps its compiled code per file and command', () => {
    const dist = tinyBundle();
    const expected = [42, 'helped', true, join(dist, 'ralph.cjs'), dist, null];
    expect(start(dist)).toEqual(expected);
    // Only the bundle's files: helper.cjs is compiled by Node as ever.
    expect(cacheFiles(dist)).toEqual(['ralph-chunk.cjs.run', 'ralph.cjs.run']);
    expect(start(dist, 'status')).toEqual(expected);
    expect(cacheFiles(dist)).toEqual([
      'ralph-chunk.cjs.run',
      'ralph-chunk.cjs.status',
      'ralph.cjs.run',
      'ralph.cjs.status',
    ]);
  });

  it.skipIf(BUILT_IN)('takes what it kept: a start that finds its cache writes none', () => {
    const dist = tinyBundle();
    start(dist);
    const file = cacheFile(dist, 'ralph.cjs');
    const before = statSync(file);
    start(dist);
    const after = statSync(file);
    expect({ ino: after.ino, mtime: after.mtimeMs }).toEqual({ ino: before.ino, mtime: before.mtimeMs });
  });

  it.skipIf(BUILT_IN)('compiles anew, and keeps the new code, when V8 rejects what it finds', () => {
    const dist = tinyBundle();
    mkdirSync(join(dist, 'compile-cache', FOLDER), { recursive: true });
    const file = cacheFile(dist, 'ralph.cjs');
    writeFileSync(file, 'not code V8 wrote');
    expect(start(dist)[0]).toBe(42);
    expect(statSync(file).size).toBeGreaterThan('not code V8 wrote'.length);
  });

  it.skipIf(BUILT_IN)('never waits on a FIFO in place of a cache file', () => {
    const dist = tinyBundle();
    mkdirSync(join(dist, 'compile-cache', FOLDER), { recursive: true });
    const fifo = cacheFile(dist, 'ralph.cjs');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    expect(start(dist)[0]).toBe(42);
  });

  it('starts the same where nothing can be kept, and keeps nothing when Node is told not to', () => {
    const unwritable = tinyBundle();
    // A file where the folder would go: no folder can be made, as in a read-only install.
    writeFileSync(join(unwritable, 'compile-cache'), '');
    expect(start(unwritable)[0]).toBe(42);
    expect(readdirSync(unwritable).sort()).toEqual(['compile-cache', 'helper.cjs', 'ralph-chunk.cjs', 'ralph.cjs']);
    const off = tinyBundle();
    expect(start(off, 'run', { NODE_DISABLE_COMPILE_CACHE: '1' })[0]).toBe(42);
    expect(existsSync(join(off, 'compile-cache'))).toBe(false);
    // Set but empty is off too, as Node 22.23 reads it: one meaning on every Node.
    expect(start(off, 'run', { NODE_DISABLE_COMPILE_CACHE: '' })[0]).toBe(42);
    expect(existsSync(join(off, 'compile-cache'))).toBe(false);
  });

  it.skipIf(BUILT_IN)('never runs the code of a file changed in place, even to the same length', () => {
    const dist = tinyBundle();
    expect(start(dist)[0]).toBe(42);
    // V8 checks a cache against the length of the text alone: 42 → 43 would pass that check.
    writeFileSync(join(dist, 'ralph-chunk.cjs'), "'use strict';\nexports.answer = () => 43;\n");
    expect(start(dist)[0]).toBe(43);
  });

  it.skipIf(BUILT_IN)('keeps a command name it does not know as "other": the argument names no file', () => {
    const dist = tinyBundle();
    start(dist, '../../escape');
    expect(cacheFiles(dist)).toEqual(['ralph-chunk.cjs.other', 'ralph.cjs.other']);
  });
});
