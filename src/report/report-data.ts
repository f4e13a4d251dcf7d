import { splitCsvLine } from '../files/csv-tail.js';
import { storyCell } from '../files/summary-csv.js';
import { byPriority, isStoryComplete, type ReviewPolicy, type Story } from '../domain/tasks.js';

/** One summary.csv row as the report reads it: a column the file lacks is null ("not recorded"). */
export interface ReportIteration {
  iteration: number;
  /** Which run appended it: 0 for the first run in the file, +1 at every boundary. */
  run: number;
  mode: string | null;
  durationSeconds: number | null;
  commit: string | null;
  storiesComplete: number | null;
  storiesTotal: number | null;
  stuckCount: number | null;
  timestamp: string | null;
  outcome: string | null;
  costUsd: number | null;
  inputTokens: number | null;
  outputTokens: number | null;
  /**
   * The story this iteration is charged to: the CSV's `story` column where it has one (null: the cell
   * is empty or names no story of the list, "unknown"), else inferred (see `chargeStories`).
   */
  story: string | null;
  /** The story cell as written, before it is matched against the task list (null: no column, or empty). */
  storyCell: string | null;
  /** The gates rejected the iteration's claim (a gates-NNN.json of its number in the logs). */
  gateRejected: boolean;
}

/** What one story cost, summed across every run and resume in summary.csv. */
export interface StoryReceipt {
  id: string;
  title: string;
  iterations: number;
  agentSeconds: number;
  /** Null when no iteration charged to it recorded a cost (text mode, an older CSV). */
  costUsd: number | null;
  tokens: number | null;
  reviews: number;
  sendBacks: number;
  /** The receipt of the iterations whose story cell is empty or names no story: id `unknown`. */
  unknown?: true;
}

export interface ReportData {
  iterations: ReportIteration[];
  /** Which optional columns the CSV has: an older ralph wrote fewer. */
  recorded: { cost: boolean; tokens: boolean; outcome: boolean; stories: boolean; story: boolean };
  runs: number;
  totals: { agentSeconds: number; costUsd: number | null; tokens: number | null; commits: number };
  receipts: StoryReceipt[];
  /** Runs of consecutive iterations whose stuck count rose: [first, last, peak]. */
  stuckStreaks: { first: number; last: number; peak: number }[];
}

/** Parses summary.csv text by header name (columns may be appended or reordered later). */
export function parseSummaryCsv(text: string): { header: string[]; rows: Record<string, string>[] } {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (lines.length === 0) return { header: [], rows: [] };
  const header = splitCsvLine(lines[0]!);
  const rows = lines.slice(1).map((line) => {
    const fields = splitCsvLine(line);
    return Object.fromEntries(header.map((name, index) => [name, fields[index] ?? '']));
  });
  return { header, rows };
}

function numberOf(row: Record<string, string>, column: string): number | null {
  const value = row[column];
  if (value === undefined || value.trim() === '') return null;
  const parsed = Number(value);
  return Number.isFinite(parsed) ? parsed : null;
}

function textOf(row: Record<string, string>, column: string): string | null {
  const value = row[column];
  return value === undefined || value === '' ? null : value;
}

/**
 * The rows as iterations, each numbered with its run: a new run starts where the iteration number
 * does not rise (a fresh CSV numbering) or a resume restarted the numbering.
 */
export function toIterations(rows: Record<string, string>[]): ReportIteration[] {
  let run = 0;
  let previous: number | null = null;
  const iterations: ReportIteration[] = [];
  for (const row of rows) {
    const iteration = numberOf(row, 'iteration');
    if (iteration === null) continue;
    if (previous !== null && iteration <= previous) run += 1;
    previous = iteration;
    const input = numberOf(row, 'input_tokens');
    const output = numberOf(row, 'output_tokens');
    iterations.push({
      iteration,
      run,
      mode: textOf(row, 'mode'),
      durationSeconds: numberOf(row, 'duration_seconds'),
      commit: textOf(row, 'commit_hash'),
      storiesComplete: numberOf(row, 'stories_complete'),
      storiesTotal: numberOf(row, 'stories_total'),
      stuckCount: numberOf(row, 'stuck_count'),
      timestamp: textOf(row, 'timestamp'),
      outcome: textOf(row, 'outcome'),
      costUsd: numberOf(row, 'cost_usd'),
      inputTokens: input,
      outputTokens: output,
      story: null,
      storyCell: textOf(row, 'story'),
      gateRejected: false,
    });
  }
  return iterations;
}

/**
 * Charges each iteration to a story. summary.csv does not name the story an iteration worked on, so
 * the report charges the iterations up to a rise of stories_complete to the story that became
 * complete there, taken in the task list's priority order among the complete stories; iterations
 * after the last rise go to the first open story. An approximation, said so in the report.
 */
export function chargeStories(iterations: ReportIteration[], stories: readonly Story[], policy: ReviewPolicy): void {
  // Complete as the run counted it in stories_complete: with the review cycle on, a story that
  // passes but waits for its review is still open, and its iterations are charged to it.
  const ordered = byPriority(stories);
  const done = ordered.filter((story) => isStoryComplete(story, policy));
  const open = ordered.filter((story) => !isStoryComplete(story, policy));
  let pending: ReportIteration[] = [];
  let completed = 0;
  for (const iteration of iterations) {
    pending.push(iteration);
    const now = iteration.storiesComplete;
    if (now === null || now <= completed) {
      // A fresh task list or a story sent back: count from where the file now says.
      if (now !== null) completed = now;
      continue;
    }
    // The rise to `now` completed the now-th story in priority order among the passing ones.
    const story = done[Math.min(done.length - 1, now - 1)];
    for (const charged of pending) charged.story = story?.id ?? null;
    pending = [];
    completed = now;
  }
  for (const charged of pending) charged.story = open[0]?.id ?? null;
}

function sumOrNull(values: (number | null)[]): number | null {
  const known = values.filter((value): value is number => value !== null);
  return known.length === 0 ? null : known.reduce((sum, value) => sum + value, 0);
}

function tokensOf(iteration: ReportIteration): number | null {
  if (iteration.inputTokens === null && iteration.outputTokens === null) return null;
  return (iteration.inputTokens ?? 0) + (iteration.outputTokens ?? 0);
}

/**
 * Charges each iteration to the story its `story` cell names (summary.csv written by this ralph); a
 * cell that is empty, or names no story of the list, leaves it unknown (null), never an error.
 */
export function readStories(iterations: ReportIteration[], stories: readonly Story[]): void {
  const byCell = new Map(stories.map((story) => [storyCell(story.id), story.id]));
  for (const iteration of iterations)
    iteration.story = iteration.storyCell === null ? null : (byCell.get(iteration.storyCell) ?? null);
}

/**
 * One receipt per story of the task list, in its order, from the iterations charged to it; with
 * `unknown`, one more for the iterations charged to none (when there are any).
 */
export function receiptsOf(
  iterations: readonly ReportIteration[],
  stories: readonly Story[],
  unknown = false,
): StoryReceipt[] {
  const receipts = stories.map((story) =>
    receiptOf(
      story.id,
      story.title,
      iterations.filter((iteration) => iteration.story === story.id),
    ),
  );
  const uncharged = iterations.filter((iteration) => iteration.story === null);
  if (unknown && uncharged.length > 0)
    receipts.push({ ...receiptOf('unknown', 'no story of the list named', uncharged), unknown: true });
  return receipts;
}

function receiptOf(id: string, title: string, mine: readonly ReportIteration[]): StoryReceipt {
  return {
    id,
    title,
    iterations: mine.length,
    agentSeconds: mine.reduce((sum, iteration) => sum + (iteration.durationSeconds ?? 0), 0),
    costUsd: sumOrNull(mine.map((iteration) => iteration.costUsd)),
    tokens: sumOrNull(mine.map(tokensOf)),
    reviews: mine.filter((iteration) => iteration.mode === 'review').length,
    sendBacks: mine.filter((iteration) => iteration.mode === 'review-fix').length,
  };
}

function stuckStreaksOf(iterations: readonly ReportIteration[]): ReportData['stuckStreaks'] {
  const streaks: ReportData['stuckStreaks'] = [];
  let current: ReportData['stuckStreaks'][number] | undefined;
  for (const iteration of iterations) {
    const stuck = iteration.stuckCount ?? 0;
    if (stuck > 0) {
      current ??= { first: iteration.iteration, last: iteration.iteration, peak: stuck };
      current.last = iteration.iteration;
      current.peak = Math.max(current.peak, stuck);
    } else if (current) {
      streaks.push(current);
      current = undefined;
    }
  }
  if (current) streaks.push(current);
  return streaks;
}

/**
 * Everything the report shows about the iterations, from summary.csv's text and the task list's
 * stories, read under the review policy the runs counted stories_complete with.
 */
export function shapeReport(
  csvText: string,
  stories: readonly Story[],
  policy: ReviewPolicy,
  gateRejections: readonly string[] = [],
): ReportData {
  const { header, rows } = parseSummaryCsv(csvText);
  const iterations = toIterations(rows);
  const has = (column: string): boolean => header.includes(column);
  // Read where the CSV names the story; a file an older ralph began (no column) is charged by inference.
  if (has('story')) readStories(iterations, stories);
  else chargeStories(iterations, stories, policy);
  markGateRejections(iterations, gateRejections);
  const last = iterations.at(-1);
  return {
    iterations,
    recorded: {
      cost: has('cost_usd'),
      tokens: has('input_tokens') || has('output_tokens'),
      outcome: has('outcome'),
      stories: has('stories_complete'),
      story: has('story'),
    },
    runs: last === undefined ? 0 : last.run + 1,
    totals: {
      agentSeconds: iterations.reduce((sum, iteration) => sum + (iteration.durationSeconds ?? 0), 0),
      costUsd: sumOrNull(iterations.map((iteration) => iteration.costUsd)),
      tokens: sumOrNull(iterations.map(tokensOf)),
      commits: iterations.filter((iteration) => iteration.commit !== null).length,
    },
    receipts: receiptsOf(iterations, stories, has('story')),
    stuckStreaks: stuckStreaksOf(iterations),
  };
}

/**
 * Marks the iterations whose claim the gates rejected: the gates write `gates-007.json` (or
 * `gates-007.2.json`) only when they block, numbered by the iteration. The number of a run's
 * start-of-run check is its first iteration's, whose row is then marked too: the gates rejected the
 * list as that iteration began.
 */
export function markGateRejections(iterations: ReportIteration[], names: readonly string[]): void {
  const rejected = new Set(names.map((name) => Number(/^gates-(\d+)/.exec(name)?.[1])));
  for (const iteration of iterations) iteration.gateRejected = rejected.has(iteration.iteration);
}
