import { randomBytes } from 'node:crypto';

/** A fresh token for `::stop-commands::`, printed nowhere else: nothing an agent wrote can resume commands. */
export function stopToken(): string {
  return `ralph-${randomBytes(16).toString('hex')}`;
}

/**
 * Text the GitHub Actions runner must not obey (a blocked reason, a story title — words an agent
 * wrote), fenced by `::stop-commands::<token>` and `::<token>::` on lines of their own. Written to
 * one stream whole: the runner may handle stderr's lines before stdout's, never out of order within one.
 */
export function fencedFromRunner(text: string): string {
  const token = stopToken();
  return `::stop-commands::${token}\n${text.endsWith('\n') ? text : `${text}\n`}::${token}::\n`;
}
