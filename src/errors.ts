/** Exit code for set-up errors: ralph or the agent cannot run as configured (BSD EX_USAGE). */
export const SETUP_EXIT_CODE = 64;

/**
 * A problem the user can fix: rendered once by the CLI as a one-line message (plus an
 * optional hint), never as a stack trace. Anything else that escapes is a bug.
 */
export class RalphError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = SETUP_EXIT_CODE,
    readonly hint?: string,
    /** The reason a refused start reports (CI outputs): `setup` unless a human must act first. */
    readonly reason: 'setup' | 'blocked' | 'decide' | 'max_resumes' = 'setup',
  ) {
    super(message);
    this.name = 'RalphError';
  }
}

/** Whether an unknown error is a Node system error with the given code (ENOENT, EEXIST, …). */
export function isErrno(error: unknown, code: string): boolean {
  return error instanceof Error && (error as NodeJS.ErrnoException).code === code;
}
