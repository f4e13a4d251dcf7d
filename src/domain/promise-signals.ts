/** What the agent signalled with `<promise>…</promise>` tags during one iteration. */
export interface PromiseSignals {
  complete: boolean;
  /** The first non-empty BLOCKED reason. */
  blocked?: string;
  /** The first non-empty DECIDE question. */
  decide?: string;
  /** Tags that are no signal: empty reasons, unknown words (`<promise>DONE</promise>`). */
  invalid: string[];
}
