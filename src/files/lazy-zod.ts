import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as Zod from 'zod';
import type { z as subset } from './zod-subset.js';

/**
 * zod, loaded the first time a schema is asked for: zod is ~95 modules, and a command that reads
 * no file or value of its own (`ralph --help`, `ralph status` with no task list) does without it.
 * Required, not imported, because its callers are synchronous (a flag's parser, tasks.json read by
 * the loop): zod ships CommonJS as well. Every schema of ralph's files is built with this one copy.
 *
 * The build bundles the part of zod ralph uses into one file beside ralph's own chunks
 * (src/files/zod-subset.ts), compiled through the code cache with them: all of zod, read and
 * compiled file by file, took as long as `ralph status` may (bench/RESULTS.md, "One schema").
 * Unbundled (the tests, tsc's output) there is no such file, and all of zod comes from node_modules.
 */
const BUNDLED = new URL('./ralph-zod.cjs', import.meta.url);
const requireFromHere = createRequire(import.meta.url);

/** The builders ralph's schemas use: the bundled part of zod, or all of it. */
export type ZodApi = typeof subset;
let zod: { z: ZodApi } | undefined;

export const loadZod = (): { z: ZodApi } =>
  (zod ??= existsSync(BUNDLED)
    ? (requireFromHere(BUNDLED.pathname) as { z: ZodApi })
    : (requireFromHere('zod') as typeof Zod));

/** A schema built on first use, with the one copy of zod. */
export function lazySchema<T>(build: (z: ZodApi) => T): () => T {
  let built: T | undefined;
  return () => (built ??= build(loadZod().z));
}
