import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import type * as ZodMini from 'zod/mini';
import type * as ZodLocales from 'zod/locales';
import type { z as subset } from './zod-subset.js';

/**
 * zod, loaded the first time a schema is asked for: a command that reads no file or value of its
 * own (`ralph --help`, `ralph status` with no task list) does without it. Required, not imported,
 * because its callers are synchronous (a flag's parser, tasks.json read by the loop): zod ships
 * CommonJS as well. Every schema of ralph's files is built with this one copy, through zod's
 * functional API (`zod/mini`, src/files/zod-subset.ts).
 *
 * The build bundles the part of zod ralph uses into one file beside ralph's own chunks,
 * compiled through the code cache with them: all of zod, read and compiled file by file, took as
 * long as `ralph status` may (bench/RESULTS.md, "One schema"). Unbundled (the tests, tsc's output)
 * there is no such file, and zod/mini comes from node_modules, with the same English messages.
 */
const BUNDLED = new URL('./ralph-zod.cjs', import.meta.url);
const requireFromHere = createRequire(import.meta.url);

/** The builders ralph's schemas use: the bundled part of zod, or all of zod/mini. */
export type ZodApi = typeof subset;
let zod: { z: ZodApi } | undefined;

export const loadZod = (): { z: ZodApi } => (zod ??= existsSync(BUNDLED) ? bundled() : fromPackage());

function bundled(): { z: ZodApi } {
  return requireFromHere(BUNDLED.pathname) as { z: ZodApi };
}

function fromPackage(): { z: ZodApi } {
  const mini = requireFromHere('zod/mini') as typeof ZodMini;
  // As zod-subset.ts does: zod/mini sets no messages of its own.
  mini.config((requireFromHere('zod/locales') as typeof ZodLocales).en());
  return { z: mini };
}

/**
 * zod's JSON Schema writer, from node_modules: only `npm run schema` (tsc's output, unbundled) and
 * the tests write templates/config.schema.json, so the bundle leaves it out (40 KB of 100 KB that
 * every command reading a schema would load). The descriptions it writes are zod's registry, which
 * zod keeps on globalThis: one for every copy.
 */
export const loadJsonSchemaWriter = (): typeof ZodMini.toJSONSchema =>
  (requireFromHere('zod/mini') as typeof ZodMini).toJSONSchema;

/** A schema built on first use, with the one copy of zod. */
export function lazySchema<T>(build: (z: ZodApi) => T): () => T {
  let built: T | undefined;
  return () => (built ??= build(loadZod().z));
}
