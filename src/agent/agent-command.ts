/** Prompts above this size go on stdin: Linux refuses single arguments over 128 KiB. */
export const MAX_PROMPT_ARGUMENT_BYTES = 100 * 1024;

/** An executable, its argv, and what goes on its stdin (nothing: /dev/null). */
export interface AgentCommand {
  file: string;
  args: string[];
  input?: string;
}

/**
 * The agent's command line for one prompt: `claude -p <prompt> <args…>`. The prompt is a
 * single argv element (no shell ever sees it), or stdin when it is too large for one.
 */
export function agentCommand(bin: string, args: readonly string[], prompt: string): AgentCommand {
  if (Buffer.byteLength(prompt) > MAX_PROMPT_ARGUMENT_BYTES) {
    return { file: bin, args: ['-p', ...args], input: prompt };
  }
  return { file: bin, args: ['-p', prompt, ...args] };
}
