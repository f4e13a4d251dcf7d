import type { Git } from './ports.js';

/** Where the work stands in git: the commit HEAD points at (null while unborn) and its branch (null when detached). */
export interface Position {
  head: string | null;
  branch: string | null;
}

/** How HEAD moved since the last position the loop accepted. */
export type Movement =
  | { kind: 'still' }
  /** New commits on the same branch, descending from the accepted one: progress. */
  | { kind: 'forward'; head: string }
  | { kind: 'rewritten'; rewrite: HistoryRewrite };

/** Commits left the branch, or HEAD left it: never progress. */
export interface HistoryRewrite {
  /**
   * rewind: HEAD went back (`git reset --hard HEAD~3`); rewrite: it went sideways (rebase, amend);
   * branch_switch: another branch or a detached HEAD.
   */
  how: 'rewind' | 'rewrite' | 'branch_switch';
  from: Position;
  to: Position;
  /** Commits reachable from the accepted HEAD and no longer from the new one. */
  left: number;
  /** The HEAD reflog entry (`HEAD@{1}`) of the accepted commit, while the reflog still has it. */
  reflog?: string;
}

/** Where HEAD is now. */
export async function readPosition(git: Git): Promise<Position> {
  return { head: await git.head(), branch: await git.branch() };
}

/**
 * Judges HEAD against `accepted`: progress only when it is on the same branch and the accepted
 * commit is an ancestor of the new one. Asks git about ancestry only when HEAD moved.
 */
export async function observeMovement(
  git: Git,
  accepted: Position,
): Promise<{ position: Position; movement: Movement }> {
  const position = await readPosition(git);
  const { head } = position;
  if (position.branch === accepted.branch) {
    if (head === accepted.head) return { position, movement: { kind: 'still' } };
    if (head !== null && (accepted.head === null || (await git.isAncestor(accepted.head, head)))) {
      return { position, movement: { kind: 'forward', head } };
    }
  }
  const from = accepted.head;
  // On the same branch `from` is a commit here: from an unborn HEAD every commit is progress.
  const rewound = head === null || (from !== null && (await git.isAncestor(head, from)));
  const how = position.branch !== accepted.branch ? 'branch_switch' : rewound ? 'rewind' : 'rewrite';
  const left = from === null ? 0 : await git.countLeft(from, head);
  const reflog = from === null ? undefined : await git.reflogEntry(from);
  return {
    position,
    movement: {
      kind: 'rewritten',
      rewrite: { how, from: accepted, to: position, left, ...(reflog ? { reflog } : {}) },
    },
  };
}

/** The git command that puts HEAD back where the loop last accepted it. */
function restoreCommand({ how, from }: HistoryRewrite): string {
  if (how === 'branch_switch' && from.branch !== null) return `git checkout ${from.branch}`;
  return how === 'branch_switch' ? `git checkout ${from.head}` : `git reset --hard ${from.head}`;
}

/** One line for the terminal: what left the branch and how to get it back. */
export function describeRewrite(rewrite: HistoryRewrite): string {
  const { from, to, left } = rewrite;
  const commits = `${left} commit${left === 1 ? '' : 's'}`;
  const entry = rewrite.reflog ? ` (${rewrite.reflog} in \`git reflog\`)` : '';
  if (rewrite.how === 'branch_switch') {
    const was = from.branch === null ? `the detached commit ${short(from.head)}` : `branch ${from.branch}`;
    const now = to.branch === null ? `a detached HEAD at ${short(to.head)}` : `branch ${to.branch}`;
    const missing = left > 0 ? `; ${commits} of ${from.branch ?? 'it'} ${left === 1 ? 'is' : 'are'} not on it` : '';
    return `HEAD left ${was} for ${now}${missing}. Go back with \`${restoreCommand(rewrite)}\`.`;
  }
  const verb = rewrite.how === 'rewind' ? 'rewound' : 'rewritten';
  const where = from.branch === null ? '' : ` on ${from.branch}`;
  return `history was ${verb}${where} (HEAD ${short(from.head)} → ${short(to.head)}): ${commits} left the branch. Get ${left === 1 ? 'it' : 'them'} back with \`${restoreCommand(rewrite)}\`${entry}.`;
}

function short(hash: string | null): string {
  return hash === null ? '(no commit)' : hash.slice(0, 8);
}
