import { dirname, join } from 'node:path';
import { ownFile } from '../errors.js';
import { parseJson } from './json-text.js';
import { lazySchema } from './lazy-zod.js';
import { readOwnFile, replaceOwnFile } from './own-file.js';

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
  zod.strictObject({ version: zod.literal(1), heads: zod.record(zod.string().min(1), zod.string().regex(HASH)) }),
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
  const json = parseJson(text);
  if (!json.ok) return { state: 'damaged', why: `not valid JSON (${json.error})` };
  const parsed = loopHeadsSchema().safeParse(json.value);
  if (!parsed.success) return { state: 'damaged', why: 'not a record of loop heads' };
  return { state: 'read', heads: parsed.data.heads };
}

/**
 * Records `move` in the record folder `records` when it carries the branch's record on
 * (nextLoopHead); a damaged record is left as it is for `ralph integrate` to name. One small
 * write, only when the head moved.
 */
export async function recordLoopHead(records: string, move: HeadMove): Promise<void> {
  if (move.branch === null) return;
  const current = await readLoopHeads(records);
  if (current.state === 'damaged') return;
  const heads = current.state === 'read' ? current.heads : {};
  const next = nextLoopHead(heads[move.branch], move);
  if (next === undefined) return;
  const text = `${JSON.stringify({ version: 1, heads: { ...heads, [move.branch]: next } }, null, 2)}\n`;
  // The record folder sits in a git dir, outside the work tree: the git dir is the root no link may leave.
  await replaceOwnFile(dirname(records), join(records, LOOP_HEADS_FILE), text);
}

/** The loop's `recordHead`: each move into the record folder `dir` (the run's, as `recordDir` resolved it). */
export function headRecorder(dir: string): (move: HeadMove) => Promise<void> {
  return (move) => ownFile(join(dir, LOOP_HEADS_FILE), 'write', () => recordLoopHead(dir, move));
}
