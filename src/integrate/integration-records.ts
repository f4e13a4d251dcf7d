import { dirname, join } from 'node:path';
import { parseJson } from '../files/json-text.js';
import { lazySchema } from '../files/lazy-zod.js';
import { appendOwnFile, readOwnFile } from '../files/own-file.js';

/**
 * ralph's record of the integration commits it made, one JSON line each, in the main checkout's
 * record folder (`<common git dir>/ralph`): an integration branch is ralph's when its tip is one of
 * them. Lines are appended (O_APPEND), so two integrations at once (the bases of two lists) never
 * lose each other's.
 */
export const INTEGRATIONS_FILE = 'integrations.jsonl';

/** One commit ralph made on an integration branch. */
export interface IntegrationEntry {
  commit: string;
  branch: string;
  /** `start`: the empty commit a new branch begins with; `merge`: a list's branch merged. */
  kind: 'start' | 'merge';
  /** The lists the commit merged (none for a start). */
  lists: string[];
  /** Whether gates checked it: false for a start, or when ralph/config.json names no gates. */
  gated: boolean;
  at: string;
}

const HASH = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

const entrySchema = lazySchema((zod) =>
  zod.strictObject({
    commit: zod.string().check(zod.regex(HASH)),
    branch: zod.string().check(zod.minLength(1)),
    kind: zod.enum(['start', 'merge']),
    lists: zod.array(zod.string()),
    gated: zod.boolean(),
    at: zod.string(),
  }),
);

/** Every entry of the record in `records` (a record folder); a line that is no entry is skipped. */
export async function readIntegrations(records: string): Promise<IntegrationEntry[]> {
  const text = await readOwnFile(join(records, INTEGRATIONS_FILE));
  const entries: IntegrationEntry[] = [];
  for (const line of (text ?? '').split('\n')) {
    if (line.trim() === '') continue;
    const json = parseJson(line);
    const parsed = json.ok ? entrySchema().safeParse(json.value) : undefined;
    if (parsed?.success) entries.push(parsed.data);
  }
  return entries;
}

/** Adds one entry to the record, before the branch is moved to it: a crash between leaves no unrecorded tip. */
export async function appendIntegration(records: string, entry: IntegrationEntry): Promise<void> {
  // The record folder sits in the git dir, outside the work tree: the git dir is the root no link may leave.
  await appendOwnFile(dirname(records), join(records, INTEGRATIONS_FILE), `${JSON.stringify(entry)}\n`);
}

/** Whether `tip` is a commit ralph recorded making on `branch`: the one test of an integration branch. */
export function isRecordedIntegration(entries: readonly IntegrationEntry[], branch: string, tip: string): boolean {
  return entries.some((entry) => entry.branch === branch && entry.commit === tip);
}
