// eslint-disable-next-line no-restricted-imports -- one of the two ways ralph starts a process (CONTRIBUTING.md)
import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';

export interface GroupStart {
  cwd: string;
  /** The program's whole environment, not added to process.env. */
  env: NodeJS.ProcessEnv;
  /** Its standard streams as Node's spawn takes them: descriptors, 'pipe', 'ignore'. */
  stdio: StdioOptions;
}

/** How a program started with startInGroup ended. */
export interface GroupExit {
  /** Undefined when a signal ended it, or it never started. */
  exitCode: number | undefined;
  signal: NodeJS.Signals | undefined;
  /** Why it could not start (ENOENT, EACCES, a NUL byte in an argument): a value, never a rejection. */
  error: NodeJS.ErrnoException | undefined;
}

/** A started program (undefined when it never started), and its ending once its streams closed. */
export interface InGroup {
  child: ChildProcess | undefined;
  ended: Promise<GroupExit>;
}

/**
 * Starts a program that ralph supervises while it runs (a gate, a parallel loop, a notification
 * command, the report's viewer) as the leader of a process group of its own, so that a signal to
 * the group reaches everything it started and a Ctrl-C at the terminal reaches ralph alone. The
 * caller owns the group: ralph's supervision (src/process/process-group.ts, containment.ts) ends
 * it; nothing here kills it when ralph exits. A short query whose output is kept is
 * runCaptured's (run-captured.ts); the agent is started by src/agent/start-agent.ts.
 */
export function startInGroup(file: string, args: readonly string[], options: GroupStart): InGroup {
  let child: ChildProcess;
  try {
    child = spawn(file, args, { cwd: options.cwd, env: options.env, stdio: options.stdio, detached: true });
  } catch (error) {
    // Arguments spawn refuses before any process exists (a NUL byte in an argument).
    const exit = { exitCode: undefined, signal: undefined, error: error as NodeJS.ErrnoException };
    return { child: undefined, ended: Promise.resolve(exit) };
  }
  const ended = new Promise<GroupExit>((resolve) => {
    child.on('error', (error) => {
      // No pid: it never started, and its 'close' would carry no exit code.
      if (child.pid === undefined) resolve({ exitCode: undefined, signal: undefined, error });
    });
    child.once('close', (code, signal) =>
      resolve({ exitCode: code ?? undefined, signal: signal ?? undefined, error: undefined }),
    );
  });
  return { child, ended };
}
