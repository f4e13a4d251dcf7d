import { createRequire } from 'node:module';
import type * as Zod from 'zod';

/**
 * zod, loaded the first time a schema is asked for. The files and values `ralph run` reads on its
 * way to the first agent are checked by hand first (src/files/plain-json-check.ts,
 * src/config/plain-config.ts, the value kinds), so the usual run never loads zod's ~95 modules;
 * any doubt goes to the schema, whose error message is the one the user sees. Required, not
 * imported, because its callers are synchronous (a flag's parser, tasks.json read by the loop):
 * zod ships CommonJS as well. Every schema of the run's files is built with this one copy.
 */
const requireFromHere = createRequire(import.meta.url);
let zod: typeof Zod | undefined;

export const loadZod = (): typeof Zod => (zod ??= requireFromHere('zod') as typeof Zod);

/** A schema built on first use, with the one copy of zod. */
export function lazySchema<T>(build: (z: typeof Zod.z) => T): () => T {
  let built: T | undefined;
  return () => (built ??= build(loadZod().z));
}
