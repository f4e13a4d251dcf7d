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
 * The warning for what of ralph's own runs from inside the repository the sandbox mounts, where
 * the agent can rewrite it: ralph itself (a dev dependency in node_modules), and folders of PATH
 * there (`node_modules/.bin`, on PATH under `npx` and `npm run`), where it may put a `git` or a
 * `docker` of its own. ralph runs on this machine, so either takes the agent's code out of the
 * sandbox. Paths real, links resolved; undefined when nothing is inside.
 */
export function sandboxReachWarning(root: string, install: string, pathFolders: readonly string[]): string | undefined {
  const within = (path: string) => {
    const inside = relative(root, path);
    return inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside) ? undefined : inside || '.';
  };
  const ralph = within(install);
  const folders = [...new Set(pathFolders.map(within).filter((inside) => inside !== undefined))];
  const named = [
    ...(ralph === undefined ? [] : [`ralph itself (${ralph})`]),
    ...(folders.length === 0 ? [] : [`PATH's ${folders.join(', ')}`]),
  ];
  if (named.length === 0) return undefined;
  return (
    `${named.join(' and ')} ${(ralph === undefined ? 0 : 1) + folders.length === 1 ? 'is' : 'are'} inside the repository the sandbox ` +
    'mounts: the agent can rewrite what ralph runs on this machine — install ralph outside the repository and start it ' +
    "with a PATH outside it (not through npx or npm run there) to keep the agent's code in the sandbox"
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

/**
 * Stops the sandbox (without removing it) so that what ralph stopped does not run on inside it.
 * Resolves to what went wrong, in a line, when docker could not stop it; `force` gives up waiting.
 */
export async function stopSandbox(
  docker: string,
  name: string,
  cwd: string,
  force?: AbortSignal,
): Promise<string | undefined> {
  const stopped = await runCaptured(docker, ['sandbox', 'stop', name], {
    cwd,
    timeoutMs: DOCKER_TIMEOUT_MS,
    maxBytes: DOCKER_MAX_OUTPUT_BYTES,
    ...(force ? { signal: force } : {}),
  });
  if (stopped.exitCode === 0) return undefined;
  const said = `${stopped.stderr}\n${stopped.stdout}`
    .split('\n')
    .map((line) => line.trim())
    .find(Boolean);
  const why =
    stopped.stopped === 'abort'
      ? 'ralph stopped waiting for it'
      : stopped.stopped
        ? `no answer within ${DOCKER_TIMEOUT_MS / 1000} s`
        : (said ?? stopped.error?.message ?? `exit ${stopped.exitCode ?? stopped.signal}`);
  return `could not stop the sandbox ${name}: ${why}`;
}
