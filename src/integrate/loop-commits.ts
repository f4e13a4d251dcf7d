import { lstat } from 'node:fs/promises';
import { readLoopHeads } from '../files/loop-heads.js';
import { commitsBeyond, isAncestor } from '../git/integration-branch.js';
import { recordDir } from '../git/record-dir.js';
import { GitStopped } from '../git/safe-git.js';
import { listWorktrees } from '../git/worktrees.js';
import { notOurWorktree } from '../lists/list-worktree.js';
import { worktreeDir } from '../lists/task-lists.js';

/** A recorded loop head, and how the branch's tip stands to it. */
export interface HeadFound {
  head: string;
  /** holds: the tip is the head or behind it; behind: the head is behind the tip; apart: neither. */
  relation: 'holds' | 'behind' | 'apart';
}

/** What ralph's records say of a loop branch's commits. */
export type LoopRuling =
  | /** Every commit on the branch is one its loop saw. */ { state: 'ok' }
  | /** No loop of this repository recorded the branch: it ran elsewhere, or before ralph kept a record. */ {
      state: 'unrecorded';
    }
  | /** Commits beyond the last head its loop recorded. */ { state: 'beyond'; head: string }
  | /** The branch no longer holds the last head its loop recorded. */ { state: 'apart'; head: string }
  | /** The record cannot be read: nothing can be vouched for. */ { state: 'damaged'; why: string };

/**
 * The ruling on a loop branch from the heads its loops recorded (its worktree's, the main
 * checkout's): fine when some record holds the tip; else the first damage, commits beyond a head,
 * or a branch gone apart from it. Nothing recorded anywhere is `unrecorded`, said but not held against it.
 */
export function judgeLoopCommits(found: readonly HeadFound[], damaged: readonly string[]): LoopRuling {
  if (found.some((head) => head.relation === 'holds')) return { state: 'ok' };
  const [why] = damaged;
  if (why !== undefined) return { state: 'damaged', why };
  const behind = found.find((head) => head.relation === 'behind');
  if (behind) return { state: 'beyond', head: behind.head };
  const [apart] = found;
  return apart ? { state: 'apart', head: apart.head } : { state: 'unrecorded' };
}

/**
 * Why a list's branch must be left out by ralph's records, or `unrecorded`/undefined: a branch
 * that gained a commit its loop never reported (another loop's agent can write any branch through
 * the shared `.git`) is named with that commit.
 */
export async function loopCommitsCheck(
  root: string,
  list: { name: string; branch: string },
  tip: string,
  signal?: AbortSignal,
): Promise<{ leftOut: string } | 'unrecorded' | undefined> {
  const found: HeadFound[] = [];
  const damaged: string[] = [];
  for (const records of await recordFolders(root, list.branch)) {
    const heads = await readLoopHeads(records);
    if (heads.state === 'damaged') damaged.push(`its loop's record ${records} is ${heads.why}`);
    const head = heads.state === 'read' ? heads.heads[list.branch] : undefined;
    if (head === undefined) continue;
    const relation = (await holds(root, tip, head, signal))
      ? 'holds'
      : (await holds(root, head, tip, signal))
        ? 'behind'
        : 'apart';
    found.push({ head, relation });
  }
  const ruling = judgeLoopCommits(found, damaged);
  switch (ruling.state) {
    case 'ok':
      return undefined;
    case 'unrecorded':
      return 'unrecorded';
    case 'damaged':
      return { leftOut: ruling.why };
    case 'apart':
      return { leftOut: `its branch no longer holds ${ruling.head.slice(0, 12)}, the last commit its loop recorded` };
    case 'beyond': {
      const { count, oldest } = await commitsBeyond(root, { from: ruling.head, to: tip }, signal);
      const named = oldest ? ` (${oldest.hash.slice(0, 7)} "${oldest.subject}")` : '';
      return { leftOut: `${count} commit${count === 1 ? '' : 's'} its loop never made${named}` };
    }
  }
}

/** Where a loop of `branch` records: its worktree's folder (when provably this repository's), the checkout's. */
async function recordFolders(root: string, branch: string): Promise<string[]> {
  const folders = [await recordDir(root)];
  const dir = worktreeDir(root, branch);
  if (!(await lstat(dir).catch(() => undefined))) return folders;
  // A folder planted there could point its .git anywhere: only git's own worktree of this repository counts.
  if ((await notOurWorktree(root, dir, await listWorktrees(root))) === undefined) folders.push(await recordDir(dir));
  return folders;
}

/** Whether `descendant` holds `ancestor`; a recorded commit git no longer has holds nothing. */
async function holds(root: string, ancestor: string, descendant: string, signal?: AbortSignal): Promise<boolean> {
  return isAncestor(root, ancestor, descendant, signal).catch((error: unknown) => {
    if (error instanceof GitStopped) throw error;
    return false;
  });
}
