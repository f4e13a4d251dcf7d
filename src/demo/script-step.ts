/** One call's instructions to the scripted agent (RALPH_AGENT_SCRIPT holds a list of them). */
export interface Step {
  /** Text the agent says; a list is written piece by piece, `pauseMs` apart. */
  say?: string | string[];
  pauseMs?: number;
  stderr?: string;
  /** Written to stderr after everything else, just before exiting (a last line may lack its newline). */
  stderrAtEnd?: string;
  /** Tool calls (stream-json), each followed by its result. */
  tools?: { name: string; input: unknown; result?: string; isError?: boolean }[];
  /** Raw stdout lines: objects are written as JSON, strings as they are. */
  events?: unknown[];
  /**
   * A raw stdout line, after `events`, naming a moment relative to the call: `{epoch}` in `text`
   * becomes the call's time in epoch seconds plus `inSeconds` (a usage limit's reset, say, that a
   * slow start cannot carry the call past, as a time fixed when the script was written could).
   */
  eventAtCall?: { text: string; inSeconds: number };
  /** Replace ralph/tasks.json: an object is written as JSON, a string as it is. */
  writeTasks?: unknown;
  /** Write these files (path → content) before implementing or committing. */
  files?: Record<string, string>;
  /**
   * Shell commands (`sh -c`, in order, each must succeed) after the files and before implementing
   * or committing: `git reset --hard HEAD~3`, a rebase, a checkout.
   */
  shell?: string[];
  /** Mark the next open story passing, write a file for it, and commit. */
  implement?: boolean;
  /** Do what the prompt's "This iteration" section asks: implement, review (with `verdict`), or fix. */
  auto?: boolean;
  /** A review's verdict in auto mode (default approve). */
  verdict?: 'approve' | 'request_changes';
  /** Commit a change without touching the task list. */
  commit?: boolean;
  /** Say COMPLETE when every story passes after this step. */
  completeWhenDone?: boolean;
  /** Start `sleep` in the background (same process group) and write its pid to this file. */
  grandchild?: string;
  /**
   * Leave two sleeping daemons outside the process group — one through `setsid`, one the way
   * daemon() does it (a fork, `setsid`, another fork, `nohup`) — and append their pids to this file.
   */
  daemons?: string;
  ignoreSigterm?: boolean;
  sleepMs?: number;
  /** Never exit on its own. */
  hang?: boolean;
  /** While hanging, say "tick" this often (busy, never idle). */
  tickMs?: number;
  exit?: number;
  /** stream-json: fields merged into the result event; `false` leaves the result out (a cut-off stream). */
  result?: Record<string, unknown> | false;
}
