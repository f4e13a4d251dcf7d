import type { RalphError } from '../errors.js';

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
