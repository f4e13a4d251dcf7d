import { lazyKind, type ValueKind } from './value-kinds.js';

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;

/** `--sandbox [name]`: off, on with the default name, or on with a given name. */
export function sandboxName(): ValueKind<string | boolean> {
  const expected = 'true, false, or a sandbox name of letters, digits, ".", "_" and "-"';
  return lazyKind<string | boolean>({
    build: (zod) =>
      zod.union([zod.boolean(), zod.string().check(zod.regex(NAME, { error: `expected ${expected}` }))], {
        error: `expected ${expected}`,
      }),
    fromText: (value) => {
      const word = value.trim().toLowerCase();
      if (['1', 'true', 'yes', 'on'].includes(word)) return true;
      if (['0', 'false', 'no', 'off', ''].includes(word)) return false;
      return value.trim();
    },
    expected,
  });
}
