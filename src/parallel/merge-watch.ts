import type { MergeCheck, Resolved } from '../git/merge-check.js';

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
 * What the watch asks of git. Without `resolve`, the branches' names go to `check` as they are
 * (each check resolves them); with it, one call resolves every branch of a round.
 */
export interface MergePorts {
  check(ours: Resolved, theirs: Resolved): Promise<MergeCheck>;
  /** The commit of each branch named, undefined for a name that is no commit. */
  resolve?(branches: readonly string[]): Promise<Map<string, string | undefined>>;
  /** True when `ancestor` is an ancestor of `descendant` as files settle it without git; undefined otherwise. */
  reaches?(ancestor: string, descendant: string): Promise<true | undefined>;
}

/**
 * How much longer than the last round of checks took the watch waits before the next round: the
 * checks take at most a third of the supervisor's time, however fast loops commit (a loop whose
 * check waits has its next commits covered by it). An agent's iteration takes minutes; this only
 * tells when loops commit many times a second.
 */
export const PACE = 2;

/**
 * The merge check while the loops run: after a loop's iteration committed, its branch against the
 * base and against every other loop's branch. Checks run one at a time (each is a git process over
 * the whole tree); a new conflict is reported once, when it appears. A loop's branch that still
 * descends from the base's commit merges into it cleanly: that check needs no merge, only the
 * commits since the last time it was known (their files, read as git wrote them).
 */
export class MergeWatch {
  private readonly cells = new Map<string, MatrixCell>();
  private queue: Promise<unknown> = Promise.resolve();
  private skipped: string | undefined;
  private readonly ports: MergePorts;
  /** Per loop, a base commit and a commit of the loop's branch known to descend from it. */
  private readonly descends = new Map<string, { base: string; tip: string }>();
  /** When the last round ended and how long it took; the next waits PACE times that. */
  private lastRound = { endedAt: 0, tookMs: 0 };
  private hurrying = false;
  private readonly pauses = new Set<() => void>();

  constructor(
    private readonly base: Side,
    ports: MergePorts | ((ours: string, theirs: string) => Promise<MergeCheck>),
  ) {
    this.ports =
      typeof ports === 'function'
        ? { check: (ours, theirs) => ports(ours.commit ?? ours.name, theirs.commit ?? theirs.name) }
        : ports;
  }

  /** The loops ended: the checks still queued run at once, with no pause between them. */
  hurry(): void {
    this.hurrying = true;
    for (const resume of this.pauses) resume();
    this.pauses.clear();
  }

  /**
   * A check with the loops' own bookkeeping left out: every loop's branch holds its own task list
   * as ralph/tasks.json and its own progress notes, so those two always differ between loops and
   * say nothing of whether their work merges (integration settles them).
   */
  private async checkWork(ours: Resolved, theirs: Resolved): Promise<MergeCheck> {
    const check = await this.ports.check(ours, theirs);
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
    const run = this.queue
      .then(() => this.pause())
      .then(async () => {
        this.waiting.delete(loop.name);
        const startedAt = Date.now();
        try {
          return await this.checkAll(loop, others);
        } finally {
          this.lastRound = { endedAt: Date.now(), tookMs: Date.now() - startedAt };
        }
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

  /** Waits PACE times as long as the last round took, counted from its end; not once hurried. */
  private pause(): Promise<void> {
    const waitMs = this.lastRound.endedAt + PACE * this.lastRound.tookMs - Date.now();
    if (this.hurrying || waitMs <= 0) return Promise.resolve();
    return new Promise((resolve) => {
      const resume = () => {
        clearTimeout(timer);
        this.pauses.delete(resume);
        resolve();
      };
      // Never what keeps the supervisor alive: the loops do, and hurry() ends the pause once they ended.
      const timer = setTimeout(resume, waitMs).unref();
      this.pauses.add(resume);
    });
  }

  private async checkAll(loop: Side, others: readonly Side[]): Promise<{ conflicts: NewConflict[]; skipped?: string }> {
    const conflicts: NewConflict[] = [];
    let skipped: string | undefined;
    const sides = [this.base, ...others.filter((side) => side.name !== loop.name)];
    const commits = await this.ports.resolve?.([loop, ...sides].map((side) => side.branch));
    const resolved = (side: Side): Resolved => ({
      name: side.branch,
      commit: commits ? commits.get(side.branch) : side.branch,
    });
    for (const other of sides) {
      // Another loop that has no branch yet (it is setting up): its own first commit checks the pair.
      if (commits && other !== this.base && commits.get(other.branch) === undefined) continue;
      // The base is always `ours`; between two loops, the first by name.
      const [ours, theirs] = other === this.base || compare(other.name, loop.name) < 0 ? [other, loop] : [loop, other];
      const check = await this.checkPair(other === this.base, loop.name, resolved(ours), resolved(theirs));
      const key = `${ours.name}\u0000${theirs.name}`;
      const before = this.cells.get(key)?.check;
      this.cells.set(key, { ours: ours.name, theirs: theirs.name, check });
      if (check.state === 'conflicts' && before?.state !== 'conflicts')
        conflicts.push({ later: loop.name, other: other.name, files: check.files });
      if (check.state === 'skipped' && this.skipped === undefined) skipped = this.skipped = check.why;
    }
    return skipped === undefined ? { conflicts } : { conflicts, skipped };
  }

  /**
   * One pair: clean when the loop's branch still descends from the base, else what merging says. A
   * pair git cannot check (a branch the agent broke) is that pair's skip, never the whole round's.
   */
  private async checkPair(withBase: boolean, loop: string, ours: Resolved, theirs: Resolved): Promise<MergeCheck> {
    try {
      if (withBase && (await this.stillDescends(loop, ours, theirs))) return { state: 'clean' };
      return await this.checkWork(ours, theirs);
    } catch (error) {
      const why = (error instanceof Error ? error.message : String(error)).split('\n')[0];
      return { state: 'skipped', why: `${ours.name} and ${theirs.name} could not be checked: ${why}` };
    }
  }

  /**
   * Whether the loop's branch still descends from the base's commit, as the commit files since the
   * last time it was known settle it; merging it into the base is then a fast-forward, clean.
   */
  private async stillDescends(loop: string, base: Resolved, tip: Resolved): Promise<boolean> {
    if (!this.ports.reaches || base.commit === undefined || tip.commit === undefined) return false;
    const known = this.descends.get(loop);
    // From the tip known last (the branch moved on a few commits), else from the base itself.
    const starts = known?.base === base.commit ? [known.tip, base.commit] : [base.commit];
    for (const from of starts) {
      if (from !== tip.commit && (await this.ports.reaches(from, tip.commit)) !== true) continue;
      this.descends.set(loop, { base: base.commit, tip: tip.commit });
      return true;
    }
    return false;
  }
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
