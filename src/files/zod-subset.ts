/**
 * The part of zod that ralph's schemas are built with: the build bundles this file, with only the
 * zod code it reaches, into dist/ralph-zod.cjs (scripts/bundle.mjs), which src/files/lazy-zod.ts
 * loads when a command first needs a schema. All of zod (its ~50 locales among it) took as long to
 * load as `ralph status` may take in all (bench/RESULTS.md, "One schema"). A builder missing here is
 * a type error where it is used: add it to the list.
 */
import {
  array,
  boolean,
  config,
  discriminatedUnion,
  enum as enumOf,
  int,
  literal,
  looseObject,
  NEVER,
  number,
  object,
  record,
  strictObject,
  string,
  toJSONSchema,
  union,
} from 'zod';
import { en } from 'zod/locales';

// All of zod sets its English messages as it loads; these are the messages the user sees, word for word.
config(en());

export const z = {
  array,
  boolean,
  discriminatedUnion,
  enum: enumOf,
  int,
  literal,
  looseObject,
  NEVER,
  number,
  object,
  record,
  strictObject,
  string,
  toJSONSchema,
  union,
};
