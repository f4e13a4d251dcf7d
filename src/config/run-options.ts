import { boolean, text, wholeNumber, type ValueKind } from './value-kinds.js';
import { sandboxName } from './sandbox-kind.js';

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
}

function option<T>(def: OptionDef<T>): OptionDef<T> {
  return def;
}

/**
 * Every configurable option of `ralph run`. Flags, environment variables (`RALPH_` + the
 * flag in upper snake case), config keys, the JSON Schema and the README table all derive
 * from this one list.
 */
export const RUN_OPTIONS = {
  maxIterations: option({ flag: '--max-iterations <n>', kind: wholeNumber(1), default: 10, description: 'iterations this run may start' }),
  maxStuck: option({ flag: '--max-stuck <n>', kind: wholeNumber(1), default: 3, description: 'consecutive iterations without a new commit that stop the run' }),
  prompt: option({ flag: '--prompt <file>', kind: text('a file path'), default: 'ralph/prompt.md', description: 'the prompt sent every iteration' }),
  agentBin: option({
    flag: '--agent-bin <path>',
    kind: text('an executable name or path'),
    default: 'claude',
    description: "the agent executable: a name on PATH or a path; anything that takes claude's arguments",
    configPath: ['agent', 'bin'],
  }),
  quiet: option({ flag: '--quiet', kind: boolean(), default: false, description: "show only ralph's own lines and the summary (agent output still goes to the logs)" }),
  sandbox: option({
    flag: '--sandbox [name]',
    kind: sandboxName(),
    default: false as string | boolean,
    defaultLabel: 'off',
    description: 'run each iteration in a Docker sandbox (name default: ralph-<dir>-<hash>)',
  }),
} satisfies Record<string, OptionDef<unknown>>;

export type RunOptionKey = keyof typeof RUN_OPTIONS;

/** The resolved value of every run option. */
export type RunSettings = { [K in RunOptionKey]: (typeof RUN_OPTIONS)[K]['default'] };

/** `--max-iterations <n>` → `max-iterations`. */
export function flagName(flag: string): string {
  return flag.replace(/^--/, '').split(/[ <[]/)[0] ?? flag;
}

/** `--max-iterations <n>` → `RALPH_MAX_ITERATIONS`. */
export function envName(flag: string): string {
  return `RALPH_${flagName(flag).replace(/-/g, '_').toUpperCase()}`;
}

/** Where an option lives in ralph/config.json. */
export function configPathOf(key: RunOptionKey): readonly string[] {
  return RUN_OPTIONS[key].configPath ?? [key];
}

/** Whether the option takes no value on the command line. */
export function isSwitch(def: OptionDef<unknown>): boolean {
  return !/[<[]/.test(def.flag);
}

