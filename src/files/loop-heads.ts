import { dirname, join } from 'node:path';
import { ownFile } from '../errors.js';
import { parseJson } from './json-text.js';
import { lazySchema } from './lazy-zod.js';
import { appendOwnFile, readOwnFile } from './own-file.js';
import { replaceOwnFile } from './replace-own-file.js';

/**
 * The last commit each loop saw its own work reach, per branch, in the loop's record folder
 * (`recordDir`): `ralph integrate` leaves out a branch that holds commits beyond it, which some
 * other process (another loop's agent, through the shared `.git`) put there.
 */
export const LOOP_HEADS_FILE = 'loop-heads.json';

/** What the record folder holds: the heads by branch, absent when none was ever recorded, or why it cannot be read. */
export type LoopHeads =
  { state: 'none' } | { state: 'read'; heads: Record<string, string> } | { state: 'damaged'; why: string };

/** One move of a branch's HEAD that ralph watched: an iteration of the loop, or ralph's own commit there. */
export interface HeadMove {
  branch: string | null;
  /** HEAD before the move (null while the branch had no commit). */
  from: string | null;
  to: string;
}

const HASH = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

const loopHeadsSchema = lazySchema((zod) =>
  zod.strictObject({
    version: zod.literal(1),
    heads: zod.record(zod.string().check(zod.minLength(1)), zod.string().check(zod.regex(HASH))),
  }),
);

/**
 * The head to record after `move`, or undefined to keep the record as it is. Only a move that
 * starts where the record stands carries it on: when the branch reached `from` through commits the
 * loop never saw (a gap), the record stays before them, so `ralph integrate` names them. The first
 * move ever recorded for a branch starts it: what the branch held before the loop is its base.
 */
export function nextLoopHead(recorded: string | undefined, move: HeadMove): string | undefined {
  if (move.branch === null || move.from === move.to) return undefined;
  if (recorded === undefined || recorded === move.from) return move.to;
  return undefined;
}

/** The loop heads recorded in `records` (a record folder). */
export async function readLoopHeads(records: string): Promise<LoopHeads> {
  const text = await readOwnFile(join(records, LOOP_HEADS_FILE));
  if (text === undefined) return { state: 'none' };
  return headsOf(text);
}

/**
 * The heads a record's text holds: one record (as an older ralph wrote it, or as compacted), or one
 * record a line, each adding its heads to those before it (recordLoopHead appends them).
 */
function headsOf(text: string): LoopHeads {
  const whole = parseJson(text);
  const records = whole.ok ? [whole.value] : [];
  if (!whole.ok)
    for (const line of text.split('\n').filter((part) => part.trim() !== '')) {
      const json = parseJson(line);
      if (!json.ok) return { state: 'damaged', why: `not valid JSON (${json.error})` };
      records.push(json.value);
    }
  const heads: Record<string, string> = {};
  for (const record of records) {
    const parsed = loopHeadsSchema().safeParse(record);
    if (!parsed.success) return { state: 'damaged', why: 'not a record of loop heads' };
    Object.assign(heads, parsed.data.heads);
  }
  return { state: 'read', heads };
}

/**
 * Records `move` in the record folder `records` when it carries the branch's record on
 * (nextLoopHead); a damaged record is left as it is for `ralph integrate` to name. One line
 * appended, only when the head moved: no rename, which on a busy disk waits for the disk's
 * write-back (bench/RESULTS.md). A record an older ralph wrote over several lines is compacted
 * into one line first. `known`: the heads the record holds, as the last call returned them, so
 * that a loop reads the record once a run, not once an iteration; returned again as they now are
 * (undefined: read the record next time).
 */
export async function recordLoopHead(
  records: string,
  move: HeadMove,
  known?: Record<string, string>,
): Promise<Record<string, string> | undefined> {
  const { branch } = move;
  if (branch === null) return known;
  const path = join(records, LOOP_HEADS_FILE);
  const text = known === undefined ? await readOwnFile(path) : undefined;
  const current = known ? { state: 'read' as const, heads: known } : text === undefined ? NONE : headsOf(text);
  if (current.state === 'damaged') return undefined;
  const heads = current.state === 'read' ? current.heads : {};
  const next = nextLoopHead(heads[branch], move);
  if (next === undefined) return known;
  const after = { ...heads, [branch]: next };
  const line = (added: Record<string, string>) => `${JSON.stringify({ version: 1, heads: added })}\n`;
  // The record folder sits in a git dir, outside the work tree: the git dir is the root no link may leave.
  if (text !== undefined && text.trimEnd().includes('\n') && parseJson(text).ok)
    await replaceOwnFile(dirname(records), path, line(after));
  else {
    const apart = text !== undefined && text !== '' && !text.endsWith('\n');
    await appendOwnFile(dirname(records), path, (empty) => `${apart && !empty ? '\n' : ''}${line({ [branch]: next })}`);
  }
  return after;
}

const NONE: LoopHeads = { state: 'none' };

/** The loop's `recordHead`: each move into the record folder `dir` (the run's, as `recordDir` resolved it). */
export function headRecorder(dir: string): (move: HeadMove) => Promise<void> {
  let known: Record<string, string> | undefined;
  return async (move) => {
    known = await ownFile(join(dir, LOOP_HEADS_FILE), 'write', () => recordLoopHead(dir, move, known));
  };
}
