import { agentCommand, type AgentCommand } from '../agent/agent-command.js';
import { checkSandbox, defaultSandboxName, sandboxCommand, stopSandbox } from '../agent/sandbox.js';
import type { ResolvedSettings } from '../config/resolve-settings.js';

/** How each iteration's agent is started: the command for a prompt, and what else stops it. */
export interface AgentInvocation {
  command(prompt: string): AgentCommand;
  /** Sandbox mode: stop the sandbox too when ralph stops the agent. */
  onForcedStop?: () => Promise<void>;
}

/**
 * The agent command line: on the host `claude -p <prompt> …`, or with --sandbox the same
 * inside `docker sandbox run` (checked to work first: never a silent fallback to the host).
 */
export async function prepareInvocation(
  resolved: ResolvedSettings,
  root: string,
  cwd: string,
  agentPath?: string,
): Promise<AgentInvocation> {
  const onHost = (prompt: string) => agentCommand(agentPath ?? 'claude', agentArguments(resolved), prompt);
  const { sandbox } = resolved.settings;
  if (sandbox === false) return { command: onHost };
  const name = typeof sandbox === 'string' ? sandbox : defaultSandboxName(root);
  const docker = await checkSandbox(cwd);
  return {
    command: (prompt) => sandboxCommand(docker, name, root, onHost(prompt)),
    onForcedStop: () => stopSandbox(docker, name, root),
  };
}

/**
 * The agent's arguments after the prompt: the permission switch, the output format, then the user's
 * extra arguments.
 */
function agentArguments({ agent, settings }: ResolvedSettings): string[] {
  return [
    ...(agent.skipPermissions ? ['--dangerously-skip-permissions'] : []),
    // stream-json needs --verbose with -p.
    ...(settings.output === 'stream-json' ? ['--output-format', 'stream-json', '--verbose'] : []),
    ...agent.args,
  ];
}
