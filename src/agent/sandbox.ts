import { createHash } from 'node:crypto';
import { basename, isAbsolute, relative, sep } from 'node:path';
import { RalphError } from '../errors.js';
import type { AgentCommand } from './agent-command.js';
import { findExecutable } from '../process/find-executable.js';
import { runCaptured } from '../process/run-captured.js';

/** What ralph keeps of docker's answers: a list of sandboxes, a line of error. */
const DOCKER_MAX_OUTPUT_BYTES = 1024 * 1024;
const DOCKER_TIMEOUT_MS = 30_000;

/** `ralph-<dir>-<8 hex of the absolute path>`: the same repository always gets the same sandbox. */
export function defaultSandboxName(root: string): string {
  const dir =
    basename(root)
      .toLowerCase()
      .replace(/[^a-z0-9_.-]+/g, '-')
      .replace(/^[^a-z0-9]+/, '') || 'repo';
  const hash = createHash('sha256').update(root).digest('hex').slice(0, 8);
  return `ralph-${dir}-${hash}`;
}

/**
 * The agent command moved into a Docker sandbox: `docker sandbox run --name NAME claude ROOT
 * -- <claude's arguments>`. The sandbox mounts the repository at the same path, so HEAD is
 * still read on the host.
 */
export function sandboxCommand(docker: string, name: string, root: string, inner: AgentCommand): AgentCommand {
  return { ...inner, file: docker, args: ['sandbox', 'run', '--name', name, 'claude', root, '--', ...inner.args] };
}

/**
 * The warning for a ralph installed inside the repository the sandbox mounts (a dev dependency in
 * node_modules): the agent can rewrite it, and what ralph runs on this machine (the rest of this
 * run, the next one) is then the agent's code. Both paths real, links resolved.
 */
export function installInsideWarning(root: string, install: string): string | undefined {
  const inside = relative(root, install);
  if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) return undefined;
  return (
    `ralph itself is installed inside the repository the sandbox mounts (${inside || '.'}): the agent can ` +
    "rewrite it, and ralph runs on this machine — install ralph outside the repository to keep the agent's code in the sandbox"
  );
}

/**
 * A shell command run inside the sandbox, from the repository (mounted at the same path):
 * `docker sandbox exec --workdir ROOT NAME sh -c COMMAND`. The quality gates run this way, so
 * the code the agent wrote runs where the agent did.
 */
export function sandboxExecCommand(
  docker: string,
  name: string,
  root: string,
  command: string,
): { file: string; args: string[] } {
  return { file: docker, args: ['sandbox', 'exec', '--workdir', root, name, 'sh', '-c', command] };
}

/** Checks that docker exists and its sandbox command works; never falls back to the host. */
export async function checkSandbox(cwd: string): Promise<string> {
  const docker = await findExecutable('docker', cwd);
  if (!docker) {
    throw new RalphError(
      'setup',
      '--sandbox needs docker, which is not on PATH',
      'install Docker Desktop 4.50+ (docker sandbox), or run without --sandbox',
    );
  }
  const probe = await runCaptured(docker, ['sandbox', 'ls'], {
    cwd,
    timeoutMs: DOCKER_TIMEOUT_MS,
    maxBytes: DOCKER_MAX_OUTPUT_BYTES,
  });
  if (probe.exitCode !== 0) {
    const said =
      `${probe.stderr}\n${probe.stdout}`
        .split('\n')
        .map((line) => line.trim())
        .find(Boolean) ??
      (probe.stopped
        ? `no answer within ${DOCKER_TIMEOUT_MS / 1000} s`
        : (probe.error?.message ?? `exit ${probe.exitCode ?? probe.signal}`));
    throw new RalphError(
      'setup',
      `--sandbox: \`docker sandbox ls\` failed: ${said}`,
      'start Docker Desktop and make sure `docker sandbox` works, or run without --sandbox',
    );
  }
  return docker;
}

/** Stops the sandbox (without removing it) so an agent ralph stopped does not run on inside it. */
export async function stopSandbox(docker: string, name: string, cwd: string): Promise<void> {
  await runCaptured(docker, ['sandbox', 'stop', name], {
    cwd,
    timeoutMs: DOCKER_TIMEOUT_MS,
    maxBytes: DOCKER_MAX_OUTPUT_BYTES,
  });
}
