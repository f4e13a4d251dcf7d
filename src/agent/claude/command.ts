import { fitsInArgument, type AgentCommand } from '../agent-command.js';
import type { CommandRequest } from '../agent-command.js';

/**
 * The agent's command line for one prompt: `claude -p <prompt> <args…>`. The prompt is a
 * single argv element (no shell ever sees it), or stdin when it is too large for one.
 */
export function agentCommand(bin: string, args: readonly string[], prompt: string): AgentCommand {
  if (!fitsInArgument(prompt)) return { file: bin, args: ['-p', ...args], input: prompt };
  return { file: bin, args: ['-p', prompt, ...args] };
}

/** `claude -p <prompt>`, the permission switch, the output format, the model, then the user's arguments. */
export function claudeCommand(bin: string, request: CommandRequest): AgentCommand {
  return agentCommand(
    bin,
    [
      ...(request.skipPermissions ? ['--dangerously-skip-permissions'] : []),
      // stream-json needs --verbose with -p.
      ...(request.output === 'stream-json' ? ['--output-format', 'stream-json', '--verbose'] : []),
      ...(request.model ? ['--model', request.model] : []),
      ...request.args,
    ],
    request.prompt,
  );
}
