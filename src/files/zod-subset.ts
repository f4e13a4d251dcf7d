/**
 * The part of zod that ralph's schemas are built with: zod's functional API (`zod/mini`), whose
 * schemas carry no methods beyond parsing, so the build bundles only the builders and checks named
 * here (scripts/bundle.mjs, dist/ralph-zod.cjs), and a schema is built from fewer objects. The
 * classic API cost `ralph status` some 3 × the load and build time (bench/RESULTS.md, "zod/mini").
 * src/files/lazy-zod.ts loads it when a command first needs a schema. A builder missing here is a
 * type error where it is used: add it to the list. zod's JSON Schema writer is not here
 * (src/files/lazy-zod.ts).
 */
import {
  _default,
  array,
  boolean,
  config,
  describe,
  discriminatedUnion,
  enum as enumOf,
  int,
  literal,
  looseObject,
  maxLength,
  maximum,
  minimum,
  minLength,
  NEVER,
  nonnegative,
  number,
  object,
  optional,
  pipe,
  positive,
  record,
  refine,
  regex,
  strictObject,
  string,
  superRefine,
  transform,
  union,
} from 'zod/mini';
import { en } from 'zod/locales';

// zod/mini sets no messages as it loads; these are the messages the user sees, word for word.
config(en());

export const z = {
  array,
  boolean,
  _default,
  describe,
  discriminatedUnion,
  enum: enumOf,
  int,
  literal,
  looseObject,
  maxLength,
  maximum,
  minimum,
  minLength,
  NEVER,
  nonnegative,
  number,
  object,
  optional,
  pipe,
  positive,
  record,
  refine,
  regex,
  strictObject,
  string,
  superRefine,
  transform,
  union,
};
