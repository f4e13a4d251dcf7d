import type { ValueKind } from './value-kinds.js';

/** One option of `ralph run`: its flag, its environment variable, its config key, its default. */
export interface OptionDef<T> {
  flag: string;
  kind: ValueKind<T>;
  default: T;
  /** How the default reads in help and docs, when it is not just the value. */
  defaultLabel?: string;
  description: string;
  /** Where it lives in ralph/config.json, when that is not the top-level key of its name. */
  configPath?: readonly [string, string];
  /** A default that depends on the environment (the default in CI differs). */
  defaultIn?: (env: NodeJS.ProcessEnv) => T;
  /** A list given one value per flag (`--notify a --notify b`); the environment separates them by commas. */
  repeatable?: boolean;
  /** A list ralph/config.json adds to, whatever the flag or variable gives: the file may narrow, never widen. */
  addsFromConfig?: boolean;
  /**
   * Why ralph/config.json may not give this value (as the file holds it), or undefined when it may:
   * the agent writes that file, so a value there that reaches outside its box is refused.
   */
  refusedInConfig?: (value: unknown) => string | undefined;
}

export function option<T>(def: OptionDef<T>): OptionDef<T> {
  return def;
}
