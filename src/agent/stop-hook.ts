import type { Merged } from '../files/merged.js';

/** What ralph uses of the JSON a client sends its Stop hook on stdin. */
export interface StopHookInput {
  /** The session's working directory. */
  cwd?: string;
}

export type HookInputParse = { ok: true; input: StopHookInput } | { ok: false; problem: string };

/**
 * A client's Stop hook: a command it runs whenever the agent wants to stop, which ralph registers
 * as `ralph hook stop` so each stop is checked. Only some clients have one; a kind without it is
 * not offered it.
 */
export interface StopHook {
  /** The project file the client reads hooks from, which `ralph init` adds ralph's hook to. */
  settingsPath: string;
  /** Every project file the client reads hooks from, in its order (the shared one, then the local one). */
  readFrom: readonly string[];
  /** ralph's hook added to that file's text, every other key kept; a warning where it cannot be done safely. */
  merge: (existing: string | undefined) => Merged;
  /** The command of ralph's hook in one settings file's text; undefined when it is not there. */
  registered: (text: string | undefined) => string | undefined;
  /** The same hook through npx, for an agent whose PATH has no ralph. */
  npxCommand: string;
  /** The hook's input from stdin, read without waiting longer than `timeoutMs`, or why there is none. */
  readInput: (stdin: NodeJS.ReadableStream & { isTTY?: boolean }, timeoutMs: number) => Promise<HookInputParse>;
  /** The project folder the client names in the hook's environment, where its input has no `cwd`. */
  projectDir: (env: NodeJS.ProcessEnv) => string | undefined;
}
