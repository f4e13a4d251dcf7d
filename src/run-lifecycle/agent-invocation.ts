import type { AgentCommand } from '../agent/agent-command.js';
import type { AgentDialect } from '../agent/dialect.js';
import { dialectOf, type AgentKind } from '../agent/dialects.js';
import { checkSandbox, defaultSandboxName, sandboxCommand, sandboxExecCommand, stopSandbox } from '../agent/sandbox.js';
import type { ResolvedSettings } from '../config/resolve-settings.js';
import type { Box } from '../box/open-box.js';
import { boxGatePlace } from '../box/box-gate-place.js';
import type { GatePlace } from '../gates/types.js';

/** How each iteration's agent is started: the command for a prompt, and what else stops it. */
export interface AgentInvocation {
  command(prompt: string): AgentCommand;
  /** Sandbox mode: stop the sandbox too when ralph stops the agent; what went wrong, if it did. */
  onForcedStop?: (force: AbortSignal) => Promise<string | undefined>;
}

/**
 * An agent of a run — the `--agent`, or the `--fallback-agent` — as its kind's dialect and its
 * executable (`--agent-bin` names the first one's; a fallback is its kind's own name on PATH).
 */
export function chosenAgent(
  { settings }: ResolvedSettings,
  kind: AgentKind = settings.agent,
): { dialect: AgentDialect; bin: string } {
  const dialect = dialectOf(kind);
  return { dialect, bin: kind === settings.agent ? (settings.agentBin ?? dialect.bin) : dialect.bin };
}

/** The run's Docker sandbox (--sandbox): docker, checked to work, and the sandbox's name. */
export interface Sandbox {
  docker: string;
  name: string;
}

/**
 * With --sandbox, docker found and `docker sandbox ls` answering — once a run, for its agents and
 * its gates alike; a failure is a refusal, never a silent fallback to the host. Undefined without.
 */
export async function openSandbox(
  { settings }: ResolvedSettings,
  root: string,
  cwd: string,
): Promise<Sandbox | undefined> {
  const { sandbox } = settings;
  if (sandbox === false) return undefined;
  return { docker: await checkSandbox(cwd), name: typeof sandbox === 'string' ? sandbox : defaultSandboxName(root) };
}

/** Where a run's agents and gates run: the Docker sandbox, the OS box, or else plainly on this machine. */
export interface Enclosure {
  /** The loop's work tree: the agent's and the gates' working directory. */
  root: string;
  sandbox?: Sandbox | undefined;
  box?: Box | undefined;
}

/**
 * The agent command line: on the host as its dialect builds it (`<client> -p <prompt> …`, `<client> exec
 * …`), inside the box, or with --sandbox the same inside `docker sandbox run`.
 */
export function agentInvocation(
  resolved: ResolvedSettings,
  { root, sandbox, box }: Enclosure,
  agentPath?: string,
  kind?: AgentKind,
): AgentInvocation {
  const { dialect, bin } = chosenAgent(resolved, kind);
  const { settings, agent } = resolved;
  const onHost = (prompt: string) =>
    dialect.command(agentPath ?? bin, {
      prompt,
      output: settings.output,
      skipPermissions: agent.skipPermissions,
      ...(settings.model ? { model: settings.model } : {}),
      args: agent.args,
    });
  if (sandbox) {
    const { docker, name } = sandbox;
    return {
      command: (prompt) => sandboxCommand(docker, name, root, onHost(prompt)),
      onForcedStop: (force) => stopSandbox(docker, name, root, force),
    };
  }
  if (box) {
    return {
      command: (prompt) => {
        const inner = onHost(prompt);
        return { ...inner, ...box.wrap(inner, root) };
      },
    };
  }
  return { command: onHost };
}

/**
 * Where the quality gates run: where the agent did, since a gate runs the code the agent wrote
 * (`npm test` runs its tests and its package.json) — in the Docker sandbox, or in the box (which
 * ends with its program, so it needs no stop of its own); else on this machine (undefined).
 */
export function gatePlace({ root, sandbox, box }: Enclosure): GatePlace | undefined {
  if (sandbox) {
    const { docker, name } = sandbox;
    return {
      label: `the sandbox ${name}`,
      launch: (command) => sandboxExecCommand(docker, name, root, command),
      stop: (force) => stopSandbox(docker, name, root, force),
    };
  }
  if (box) return boxGatePlace(box, root);
  return undefined;
}
