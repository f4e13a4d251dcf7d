import { describe, expect, it, vi } from 'vitest';
import type { MergeCheck } from '../../../src/git/merge-check.js';
import type { Resolved } from '../../../src/git/merge-check.js';
import { MergeWatch, PACE } from '../../../src/parallel/merge-watch.js';

const CLEAN: MergeCheck = { state: 'clean' };

/** A merge check answering from a table keyed `ours<-theirs`; clean when absent. */
function checks(table: Record<string, MergeCheck>) {
  const asked: string[] = [];
  return {
    asked,
    check: (ours: string, theirs: string) => {
      asked.push(`${ours}<-${theirs}`);
      return Promise.resolve(table[`${ours}<-${theirs}`] ?? CLEAN);
    },
  };
}

const base = { name: 'main', branch: 'main' };
const side = (name: string) => ({ name, branch: `ralph/${name}` });

describe('MergeWatch', () => {
  it('checks a committing loop against the base and each other loop, reporting a conflict once, when it appears', async () => {
    const table: Record<string, MergeCheck> = {};
    const fake = checks(table);
    const watch = new MergeWatch(base, fake.check);
    expect((await watch.committed(side('ui'), [side('api')])).conflicts).toEqual([]);
    expect(fake.asked).toEqual(['main<-ralph/ui', 'ralph/api<-ralph/ui']);
    table['ralph/api<-ralph/ui'] = { state: 'conflicts', files: ['src/routes.ts'] };
    expect((await watch.committed(side('ui'), [side('api')])).conflicts).toEqual([
      { later: 'ui', other: 'api', files: ['src/routes.ts'] },
    ]);
    // Still conflicting at the other loop's commit: not new.
    expect((await watch.committed(side('api'), [side('ui')])).conflicts).toEqual([]);
    expect(watch.matrix()).toEqual(
      [
        { ours: 'main', theirs: 'ui', check: { state: 'clean' } },
        { ours: 'main', theirs: 'api', check: { state: 'clean' } },
        { ours: 'api', theirs: 'ui', check: { state: 'conflicts', files: ['src/routes.ts'] } },
      ].sort((a, b) => Number(b.ours === 'main') - Number(a.ours === 'main') || (a.theirs < b.theirs ? -1 : 1)),
    );
  });

  it("leaves out the loops' own task list and progress notes, which always differ", async () => {
    const fake = checks({
      'ralph/a<-ralph/b': { state: 'conflicts', files: ['ralph/tasks.json', 'ralph/progress.txt'] },
      'main<-ralph/b': { state: 'conflicts', files: ['ralph/progress.txt', 'README.md'] },
    });
    const watch = new MergeWatch(base, fake.check);
    const { conflicts } = await watch.committed(side('b'), [side('a')]);
    expect(conflicts).toEqual([{ later: 'b', other: 'main', files: ['README.md'] }]);
    expect(watch.matrix().find((cell) => cell.ours === 'a')?.check).toEqual({ state: 'clean' });
  });

  it('says once why checks are skipped (an older git)', async () => {
    const watch = new MergeWatch(base, () => Promise.resolve({ state: 'skipped', why: 'git 2.30 has no merge-tree' }));
    expect((await watch.committed(side('a'), [])).skipped).toBe('git 2.30 has no merge-tree');
    expect((await watch.committed(side('a'), [])).skipped).toBeUndefined();
  });
});

describe('MergeWatch under many commits', () => {
  it('checks a loop once for the commits it made while its check waited its turn', async () => {
    const fake = checks({});
    const watch = new MergeWatch(base, fake.check);
    const first = watch.committed(side('a'), []);
    const second = watch.committed(side('b'), []);
    const again = watch.committed(side('b'), []);
    await Promise.all([first, second, again]);
    expect(fake.asked).toEqual(['main<-ralph/a', 'main<-ralph/b']);
  });
});

describe('MergeWatch with resolved branches', () => {
  /** Branches at fixed commits, a history of `descendant>ancestor` pairs, and what the watch asked. */
  function world(commits: Record<string, string | undefined>, history: string[]) {
    const asked: string[] = [];
    const walked: string[] = [];
    const ports = {
      check: (ours: Resolved, theirs: Resolved) => {
        asked.push(`${ours.commit}<-${theirs.commit}`);
        return Promise.resolve(CLEAN);
      },
      resolve: (branches: readonly string[]) => Promise.resolve(new Map(branches.map((b) => [b, commits[b]]))),
      reaches: (ancestor: string, descendant: string) => {
        walked.push(`${ancestor}..${descendant}`);
        return Promise.resolve(history.includes(`${descendant}>${ancestor}`) ? (true as const) : undefined);
      },
    };
    return { asked, walked, ports };
  }

  it('merges nothing for a branch that still descends from the base, walking on from the tip it knew', async () => {
    const commits: Record<string, string | undefined> = { main: 'b0', 'ralph/a': 'a1' };
    const { asked, walked, ports } = world(commits, ['a1>b0', 'a2>a1']);
    const watch = new MergeWatch(base, ports);
    await watch.committed(side('a'), []);
    commits['ralph/a'] = 'a2';
    await watch.committed(side('a'), []);
    expect(asked).toEqual([]);
    expect(walked).toEqual(['b0..a1', 'a1..a2']);
    expect(watch.matrix()).toEqual([{ ours: 'main', theirs: 'a', check: CLEAN }]);
    // The base moved: the branch no longer descends from it, so git merges the two.
    commits.main = 'b1';
    await watch.committed(side('a'), []);
    expect(asked).toEqual(['b1<-a2']);
  });

  it('checks no pair with a loop that has no branch yet, and says nothing of it', async () => {
    const { asked, ports } = world({ main: 'b0', 'ralph/a': 'a1', 'ralph/b': undefined }, []);
    const watch = new MergeWatch(base, ports);
    const result = await watch.committed(side('a'), [side('b')]);
    expect(result).toEqual({ conflicts: [] });
    expect(asked).toEqual(['b0<-a1']);
  });

  it('waits between rounds as long as PACE times the last took, unless hurried', async () => {
    // On the fake clock: a busy machine's late timer can neither end the wait early nor stretch the round.
    vi.useFakeTimers();
    try {
      const roundMs = 60_000;
      let delayMs = roundMs;
      const watch = new MergeWatch(base, {
        check: () => new Promise((resolve) => setTimeout(() => resolve(CLEAN), delayMs)),
      });
      const first = watch.committed(side('a'), []);
      await vi.advanceTimersByTimeAsync(roundMs);
      await first;
      delayMs = 0;
      let done = false;
      const next = watch.committed(side('a'), []).then(() => (done = true));
      await vi.advanceTimersByTimeAsync(PACE * roundMs - 1000);
      expect(done).toBe(false);
      watch.hurry();
      await vi.advanceTimersByTimeAsync(1);
      await next;
      expect(done).toBe(true);
      expect(PACE).toBeGreaterThan(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('without a hurry, the next round starts once PACE times the last round has passed', async () => {
    vi.useFakeTimers();
    try {
      const roundMs = 10_000;
      const asked: number[] = [];
      const watch = new MergeWatch(base, {
        check: () => {
          asked.push(Date.now());
          return new Promise((resolve) => setTimeout(() => resolve(CLEAN), roundMs));
        },
      });
      const first = watch.committed(side('a'), []);
      await vi.advanceTimersByTimeAsync(roundMs);
      await first;
      const second = watch.committed(side('a'), []);
      await vi.advanceTimersByTimeAsync(PACE * roundMs + roundMs);
      await second;
      expect(asked).toHaveLength(2);
      expect(asked[1]! - asked[0]!).toBe(roundMs + PACE * roundMs);
    } finally {
      vi.useRealTimers();
    }
  });
});
