/**
 * What a stand-in model API plays, one turn per model request, shared by every protocol's stand-in
 * (stand-in-api.ts for Anthropic's Messages; one file per other protocol). Each stand-in renders a
 * turn in its vendor's documented shapes; the scenarios below are the same for every client.
 */
export type Turn =
  /** The model asks for one shell tool call with this command. */
  | { bash: string }
  /** The model's final text. */
  | { text: string }
  /** The vendor's usage-limit answer (its status, body and reset headers), resetting at `resetsAt`. */
  | { fault: 'usage-limit'; resetsAt: Date }
  /** The vendor's authentication failure (401 with its body). */
  | { fault: 'auth' }
  /** The vendor's overload answer (Anthropic 529, OpenAI/Gemini 503). */
  | { fault: 'overload' }
  /** The stream starts, then sends nothing more and never ends. */
  | { fault: 'stall' };

/** The shell command that does story US-1 of a one-story list and commits it. */
export const DO_THE_STORY =
  'node -e \'const f="ralph/tasks.json";const t=JSON.parse(require("fs").readFileSync(f,"utf8"));' +
  't.stories[0].passes=true;require("fs").writeFileSync(f,JSON.stringify(t,null,2))\' && ' +
  'echo done > story.txt && git add -A && git commit -qm "US-1 by the real client"';

/** The scenarios every real client is run through (test:agents), as scripts of turns. */
export const SCENARIOS = {
  complete: [{ bash: DO_THE_STORY }, { text: 'Done. <promise>COMPLETE</promise>' }],
  blocked: [{ text: '<promise>BLOCKED:The stand-in cannot reach the database</promise>' }],
  decide: [{ text: '<promise>DECIDE:Postgres or SQLite for the store?</promise>' }],
  auth: [{ fault: 'auth' }],
  overload: [{ fault: 'overload' }],
  stall: [{ fault: 'stall' }],
} satisfies Record<string, readonly Turn[]>;

/** A usage limit that resets `minutes` after `now`. */
export function usageLimit(now: Date, minutes: number): readonly Turn[] {
  return [{ fault: 'usage-limit', resetsAt: new Date(now.getTime() + minutes * 60_000) }];
}
