/** Prompts above this size go on stdin: Linux refuses single arguments over 128 KiB. */
export const MAX_PROMPT_ARGUMENT_BYTES = 100 * 1024;

/** An executable, its argv, and what goes on its stdin (nothing: /dev/null). */
export interface AgentCommand {
  file: string;
  args: string[];
  input?: string;
}

/** Whether the prompt fits in one argv element (no shell ever sees it), or must go on stdin. */
export function fitsInArgument(prompt: string): boolean {
  return Buffer.byteLength(prompt) <= MAX_PROMPT_ARGUMENT_BYTES;
}
