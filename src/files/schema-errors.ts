import type { z } from 'zod/mini';

/** One line naming where a value is wrong and what was expected: `stories[2].passes: expected boolean`. */
export function describeIssue(issue: z.core.$ZodIssue): string {
  const where = formatPath(issue.path);
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((key) => JSON.stringify(key)).join(', ');
    return `${where ? `${where}: ` : ''}unknown key ${keys}`;
  }
  const message = issue.message.replace(/^Invalid input: /, '');
  return where ? `${where}: ${message}` : message;
}

/** `["stories", 2, "id"]` → `stories[2].id`. */
export function formatPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, index) => (typeof part === 'number' ? `[${part}]` : `${index === 0 ? '' : '.'}${String(part)}`))
    .join('');
}
