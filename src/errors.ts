/**
 * What kind of problem a RalphError is. The kind alone decides the ending's reason and so its exit
 * code (src/loop/termination.ts, `endingOf` and `exitCodeFor`): no call site writes an exit code.
 */
export type ErrorKind =
  /** A bad flag, variable or argument on the command line. */
  | 'usage'
  /** ralph or the agent cannot run as configured: a file, the repository, the agent, the work tree. */
  | 'setup'
  /** A read or write of ralph's own files failed, the run lock's included (full disk, read-only, permissions). */
  | 'io'
  /** ralph/blocked.txt waits for a human. */
  | 'blocked'
  /** ralph/decide.txt has a question without an answer. */
  | 'decide'
  /** The task list was resumed too often without progress. */
  | 'max_resumes';

/**
 * A problem the user can fix: rendered once by the CLI as a one-line message (plus an
 * optional hint), never as a stack trace. Anything else that escapes is a bug.
 */
export class RalphError extends Error {
  constructor(
    readonly kind: ErrorKind,
    message: string,
    readonly hint?: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'RalphError';
  }
}

/** The one line a RalphError is shown as: what is wrong, then how to fix it. */
export function errorLine(error: RalphError): string {
  return `ralph: ${error.message}${error.hint ? ` — ${error.hint}` : ''}`;
}

/** Whether an unknown error is a Node system error with the given code (ENOENT, EEXIST, …). */
export function isErrno(error: unknown, code: string): boolean {
  return errnoCode(error) === code;
}

/** The OS error code of a Node system error (ENOSPC, EACCES, …), if it is one. */
export function errnoCode(error: unknown): string | undefined {
  const code = error instanceof Error ? (error as NodeJS.ErrnoException).code : undefined;
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code) ? code : undefined;
}

/** What ralph was doing with a file when the OS refused (`open` when it cannot tell a read from a write). */
export type FileAction = 'read' | 'write' | 'open';

/**
 * A failed read or write of one of ralph's own files, as an `io` RalphError naming the path and
 * the OS error: `cannot write /repo/ralph/logs/summary.csv: ENOSPC (no space left on device)`.
 */
export function ioError(error: unknown, path: string, action: FileAction): RalphError {
  if (error instanceof RalphError) return error;
  const code = errnoCode(error) ?? 'EIO';
  // Node's message is "ENOSPC: no space left on device, write": keep the human part.
  const said = /^[A-Z0-9]+: ([^,]+)/.exec((error as Error)?.message ?? '')?.[1];
  return new RalphError(
    'io',
    `cannot ${action} ${path}: ${code}${said ? ` (${said})` : ''}`,
    IO_HINTS[code] ?? 'check the path, its disk and its permissions',
    { cause: error },
  );
}

const IO_HINTS: Record<string, string> = {
  ENOSPC: 'free space on that disk, then run again',
  EDQUOT: 'free space in your disk quota, then run again',
  EACCES: 'fix its permissions, then run again',
  EPERM: 'fix its permissions or attributes (lsattr), then run again',
  EROFS: 'the file system is read-only: remount it writable or move the repository',
  ENOENT: 'a file or folder on that path is missing: restore it, then run again',
};

/**
 * An error the user can act on, as its RalphError: itself; a program that cannot be started (git
 * not installed) as a `setup` error; an OS error on a file (ENOSPC, EROFS, EACCES…) as an `io`
 * error naming the file. Undefined for anything else: a bug in ralph.
 */
export function knownError(error: unknown): RalphError | undefined {
  if (error instanceof RalphError) return error;
  const code = errnoCode(error);
  if (code === undefined) return undefined;
  const { path, dest, syscall } = error as NodeJS.ErrnoException & { dest?: string };
  if (syscall?.startsWith('spawn'))
    return new RalphError(
      'setup',
      `cannot start ${path ?? 'a program'}: ${code === 'ENOENT' ? 'not found on PATH' : code}`,
      code === 'ENOENT' ? 'install it, or put it on PATH' : 'check that it is a program you may run',
    );
  const action = syscall === 'open' ? 'open' : READING_CALLS.has(syscall ?? '') ? 'read' : 'write';
  return ioError(error, dest ?? path ?? "one of ralph's files", action);
}

/** System calls that only read: a failure there is no failed write. */
const READING_CALLS = new Set(['access', 'lstat', 'opendir', 'read', 'readlink', 'scandir', 'stat']);

/**
 * Runs a read or write of one of ralph's own files: an OS error becomes an `io` RalphError naming
 * the path; a RalphError passes as it is, and a bug stays a bug.
 */
export async function ownFile<T>(path: string, action: FileAction, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw errnoCode(error) === undefined ? error : ioError(error, path, action);
  }
}
