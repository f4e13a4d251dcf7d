import type { AgentCommand } from './agent-command.js';
import { counted } from '../domain/plural.js';

/** What one kilobyte is, for the sizes in messages. */
const KIB = 1024;

/**
 * Why this command cannot be passed to the kernel at all: a NUL byte ends a C string, so an
 * argument or a variable holding one would be cut short. Undefined when there is none.
 */
export function findNulByte(command: AgentCommand, env: NodeJS.ProcessEnv): string | undefined {
  const index = command.args.findIndex((arg) => arg.includes('\0'));
  if (command.file.includes('\0')) return 'the agent command contains a NUL byte';
  if (index !== -1)
    return `argument ${index + 1} of the agent command (${preview(command.args[index] ?? '')}) contains a NUL byte`;
  for (const [name, value] of Object.entries(env)) {
    if (name.includes('\0')) return `an environment variable name (${preview(name)}) contains a NUL byte`;
    // ralph's own environment cannot hold one (the kernel passed it as C strings): it came from agent.env.
    if (value?.includes('\0')) return `agent.env variable ${name} contains a NUL byte`;
  }
  return undefined;
}

/** The one-line cause of a spawn that failed: what the system said, and what to do about it. */
export function describeSpawnError(error: unknown, command: AgentCommand, env: NodeJS.ProcessEnv): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  switch (code) {
    case 'E2BIG': {
      const { args, largest, environment } = commandSizes(command, env);
      return (
        `the agent could not be started: its arguments (${kib(args)}, the largest ${kib(largest.bytes)}: ${largest.what}) ` +
        `and environment (${kib(environment)}) are too large for the kernel (E2BIG); ` +
        'move long text out of agent.args or agent.env into a file the agent reads, or pass it on stdin'
      );
    }
    case 'ENOENT':
      return `the agent could not be started: ${command.file} was not found (ENOENT); check agent.bin and PATH`;
    case 'EACCES':
      return `the agent could not be started: ${command.file} is not executable (EACCES); check its permissions (chmod +x)`;
    default: {
      const message = error instanceof Error ? error.message : String(error);
      return `the agent could not be started: ${message.split('\n')[0]}${code ? ` (${code})` : ''}`;
    }
  }
}

/** Bytes the kernel copies for argv and envp (each string with its terminating NUL). */
function commandSizes(command: AgentCommand, env: NodeJS.ProcessEnv) {
  const argv = [command.file, ...command.args];
  const sizes = argv.map((arg) => Buffer.byteLength(arg) + 1);
  const at = sizes.indexOf(Math.max(...sizes));
  const what = at === 0 ? 'the command' : `argument ${at} (${preview(argv[at] ?? '')})`;
  const environment = Object.entries(env).reduce(
    (sum, [name, value]) => sum + Buffer.byteLength(`${name}=${value ?? ''}`) + 1,
    0,
  );
  return { args: sizes.reduce((sum, size) => sum + size, 0), largest: { bytes: sizes[at] ?? 0, what }, environment };
}

function kib(bytes: number): string {
  return bytes < KIB ? counted(bytes, 'byte') : `${Math.round(bytes / KIB)} KiB`;
}

/** The start of a long string, printable on one line. */
function preview(text: string): string {
  const shown = JSON.stringify(text.slice(0, 24));
  return text.length > 24 ? `${shown.slice(0, -1)}…"` : shown;
}
