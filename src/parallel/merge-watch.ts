import type { MergeCheck } from '../git/merge-check.js';

/** Files each loop's branch holds its own of: ralph/lists/<name>.json as its task list, its progress notes. */
export const LOOP_BOOKKEEPING: ReadonlySet<string> = new Set(['ralph/tasks.json', 'ralph/progress.txt']);

/** A branch in the matrix: a loop's (by its list's name) or the base the loops started from. */
export interface Side {
  name: string;
  branch: string;
}

/** One cell of the merge matrix: would `theirs` merge into `ours`, as last checked. */
export interface MatrixCell {
  ours: string;
  theirs: string;
  check: MergeCheck;
}

/** A conflict the last check found that the one before did not. */
export interface NewConflict {
  /** The loop whose commit made it: the later of the two. */
  later: string;
  other: string;
  files: readonly string[];
}

/**
 * The merge check while the loops run: after a loop's iteration committed, its branch against the
 * base and against every other loop's branch. Checks run one at a time (each is a git process over
 * the whole tree); a new conflict is reported once, when it appears.
 */
export class MergeWatch {
  private readonly cells = new Map<string, MatrixCell>();
  private queue: Promise<unknown> = Promise.resolve();
  private skipped: string | undefined;

  constructor(
    private readonly base: Side,
    private readonly check: (ours: string, theirs: string) => Promise<MergeCheck>,
  ) {}

  /**
   * A check with the loops' own bookkeeping left out: every loop's branch holds its own task list
   * as ralph/tasks.json and its own progress notes, so those two always differ between loops and
   * say nothing of whether their work merges (integration settles them).
   */
  private async checkWork(ours: string, theirs: string): Promise<MergeCheck> {
    const check = await this.check(ours, theirs);
    if (check.state !== 'conflicts') return check;
    const files = check.files.filter((file) => !LOOP_BOOKKEEPING.has(file));
    return files.length === 0 ? { state: 'clean' } : { state: 'conflicts', files };
  }

  /**
   * `loop` committed: checks it against the base and the `others` (the loops whose branches exist).
   * Resolves with the conflicts that are new, and, the first time only, why checks are skipped.
   */
  committed(loop: Side, others: readonly Side[]): Promise<{ conflicts: NewConflict[]; skipped?: string }> {
    // A check of this loop still waiting its turn reads the branch when it runs: it covers this commit too.
    const waiting = this.waiting.get(loop.name);
    if (waiting) return waiting.then(() => ({ conflicts: [] }));
    const run = this.queue.then(() => {
      this.waiting.delete(loop.name);
      return this.checkAll(loop, others);
    });
    this.waiting.set(loop.name, run);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Per loop, its check queued but not started yet. */
  private readonly waiting = new Map<string, Promise<unknown>>();

  /** Every pair checked so far, base first, then by name. */
  matrix(): MatrixCell[] {
    return [...this.cells.values()].sort(
      (a, b) =>
        Number(b.ours === this.base.name) - Number(a.ours === this.base.name) ||
        compare(a.ours, b.ours) ||
        compare(a.theirs, b.theirs),
    );
  }

  private async checkAll(loop: Side, others: readonly Side[]): Promise<{ conflicts: NewConflict[]; skipped?: string }> {
    const conflicts: NewConflict[] = [];
    let skipped: string | undefined;
    for (const other of [this.base, ...others.filter((side) => side.name !== loop.name)]) {
      // The base is always `ours`; between two loops, the first by name.
      const [ours, theirs] = other === this.base || compare(other.name, loop.name) < 0 ? [other, loop] : [loop, other];
      const check = await this.checkWork(ours.branch, theirs.branch);
      const key = `${ours.name}\u0000${theirs.name}`;
      const before = this.cells.get(key)?.check;
      this.cells.set(key, { ours: ours.name, theirs: theirs.name, check });
      if (check.state === 'conflicts' && before?.state !== 'conflicts')
        conflicts.push({ later: loop.name, other: other.name, files: check.files });
      if (check.state === 'skipped' && this.skipped === undefined) skipped = this.skipped = check.why;
    }
    return skipped === undefined ? { conflicts } : { conflicts, skipped };
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
