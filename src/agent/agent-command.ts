/** Prompts above this size go on stdin: Linux refuses single arguments over 128 KiB. */
export const MAX_PROMPT_ARGUMENT_BYTES = 100 * 1024;

/** What one iteration asks of the agent's command line. */
export interface CommandRequest {
  prompt: string;
  /** `stream-json`: the client's own machine-readable events; `text`: its plain output. */
  output: 'stream-json' | 'text';
  /** Run unattended: the client's switch that skips every permission prompt. */
  skipPermissions: boolean;
  /** The model, in the client's own naming; absent: the client's default. */
  model?: string;
  /** The user's extra arguments (config `agent.args`), appended last. */
  args: readonly string[];
}

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

/** How one client says the three things every iteration asks: stream its events, skip permissions, use a model. */
export interface ClientSwitches {
  stream: readonly string[];
  skipPermissions: readonly string[];
  model: string;
}

/** The switches a request asks for, in the client's own words (the model last, with its value). */
export function switchesFor(request: CommandRequest, words: ClientSwitches): string[] {
  return [
    ...(request.output === 'stream-json' ? words.stream : []),
    ...(request.skipPermissions ? words.skipPermissions : []),
    ...(request.model ? [words.model, request.model] : []),
  ];
}

/**
 * A client's command line with the prompt as one argument where it fits, else on stdin: `args` gets
 * the prompt, or undefined when it goes on stdin.
 */
export function withPrompt(bin: string, prompt: string, args: (prompt: string | undefined) => string[]): AgentCommand {
  const fits = fitsInArgument(prompt);
  return { file: bin, args: args(fits ? prompt : undefined), ...(fits ? {} : { input: prompt }) };
}
