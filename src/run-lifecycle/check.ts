import { RalphError } from '../errors.js';

/** One thing checked before the first call, as `--dry-run` lists it. */
export interface Check {
  name: string;
  status: 'ok' | 'warning' | 'failure';
  detail: string;
  /** A failure's error: what a real run stops with. */
  error?: RalphError;
}

/** A failed check carrying the error a real run stops with. */
export function failed(name: string, error: RalphError): Check {
  return { name, status: 'failure', detail: error.message, error };
}

/**
 * What a run stops with after its start checks, dry or real alike: nothing, the one failed check's
 * error as it is, or — when several failed — every one of them at once, each with its fix, so that
 * one run says all there is to fix (root, login and network together, not one per attempt). The
 * first failure's kind decides the exit code: the checks are in the documented order.
 */
export function refusalOf(checks: readonly Check[]): RalphError | undefined {
  const failures = checks.flatMap((check) => (check.error ? [{ name: check.name, error: check.error }] : []));
  const [first] = failures;
  if (first === undefined || failures.length === 1) return first?.error;
  const lines = failures.map(({ name, error }) => `  ${name}: ${error.message}${error.hint ? ` — ${error.hint}` : ''}`);
  const head = `${failures.length} start checks failed:`;
  return new RalphError(first.error.kind, [head, ...lines].join('\n'));
}
