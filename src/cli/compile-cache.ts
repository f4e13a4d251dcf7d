import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createHash } from 'node:crypto';
import Module from 'node:module';
import { basename, dirname, join } from 'node:path';
import { Script } from 'node:vm';

/**
 * V8's compiled code for ralph's bundle, kept beside it: a start then skips parsing and compiling
 * some 400 KB of JavaScript, and compiling each function it calls (bench/RESULTS.md, "Compiled
 * once"). Node 22 does this itself (`module.enableCompileCache`); on Node 20 the bundle's chunks
 * are compiled here, through `vm.Script` and its `cachedData`, the way v8-compile-cache did it.
 *
 * The cache lives in the package's own dist/, beside the code it stands for: whoever can write
 * there can already rewrite ralph, so a planted cache gives an agent nothing it did not have.
 * Where dist/ is not writable (a root-owned global install, a read-only store) nothing is kept
 * and ralph compiles as usual. NODE_DISABLE_COMPILE_CACHE, Node's own switch, turns it off.
 */
export const CACHE_FOLDER = 'compile-cache';

/** The bundle's files (scripts/bundle.mjs): only these are compiled here. */
const BUNDLE_FILE = /^ralph(?:-[\w-]+)?\.cjs$/;

/** Far above any chunk's cache; a larger file was not written by this code. */
const MAX_CACHE_BYTES = 32 * 1024 * 1024;

type Wrapper = (
  exports: unknown,
  require: NodeJS.Require,
  module: Module,
  filename: string,
  dirname: string,
) => unknown;
type Compile = (this: Module, content: string, filename: string, ...rest: unknown[]) => unknown;
const modulePrototype = Module.prototype as unknown as { _compile: Compile };

/**
 * Compiles the bundle in `dist` through the cache from now on. The cache of each file is kept per
 * command (`run`, `status`…): V8 keeps what a process compiled, and each command runs other code.
 * Its name holds a hash of the file's text: V8 checks only the text's length, and a file changed
 * in place (a patch, a copy over an install) must not run the code of the one before.
 */
export function useCompileCache(dist: string, argv: readonly string[]): void {
  // Set at all, even empty, it switches the cache off: as Node 22's own reads it.
  if (process.env.NODE_DISABLE_COMPILE_CACHE !== undefined) return;
  const folder = join(dist, CACHE_FOLDER);
  const builtIn = (Module as { enableCompileCache?: (directory: string) => unknown }).enableCompileCache;
  if (builtIn) {
    builtIn(folder);
    return;
  }
  const command = /^[a-z][a-z-]*$/.test(argv[2] ?? '') ? argv[2]! : 'other';
  // V8 rejects a cache of another version or flags; a folder per Node keeps two Nodes from taking turns.
  const place = join(folder, `${process.version}-${process.arch}`);
  const fresh: { script: Script; file: string }[] = [];
  const compile = modulePrototype._compile;
  modulePrototype._compile = function (this: Module, content: string, filename: string, ...rest: unknown[]) {
    if (dirname(filename) !== dist || !BUNDLE_FILE.test(basename(filename)))
      return compile.call(this, content, filename, ...rest);
    const text = createHash('sha1').update(content).digest('hex').slice(0, 12);
    const file = join(place, `${basename(filename)}.${command}.${text}`);
    const cachedData = readCache(file);
    const script = new Script(Module.wrap(content), { filename, ...(cachedData ? { cachedData } : {}) });
    if (cachedData === undefined || script.cachedDataRejected) fresh.push({ script, file });
    const wrapper = script.runInThisContext() as Wrapper;
    return wrapper.call(this.exports, this.exports, Module.createRequire(filename), this, filename, dist);
  };
  // At exit, when V8 has compiled everything this command ran: the next start finds it all.
  process.once('exit', () => {
    for (const { script, file } of fresh) writeCache(file, script.createCachedData());
  });
}

/** The cache file's bytes, or undefined: missing, not a plain file (never a FIFO to block on), or too large. */
function readCache(file: string): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    const stats = fstatSync(fd);
    const { size } = stats;
    if (!stats.isFile() || size === 0 || size > MAX_CACHE_BYTES) return undefined;
    const bytes = Buffer.alloc(size);
    return readSync(fd, bytes, 0, size, 0) === size ? bytes : undefined;
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/** Written whole or not at all (a file of its own, then renamed): a parallel run may write the same. */
function writeCache(file: string, bytes: Buffer): void {
  const partial = `${file}.${process.pid}`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(partial, bytes, { flag: 'wx' });
    renameSync(partial, file);
  } catch {
    // Not writable here: ralph compiles at every start, as without a cache.
    try {
      rmSync(partial, { force: true });
    } catch {
      // There was no folder to leave it in.
    }
  }
}
