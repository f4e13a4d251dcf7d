import { join } from 'node:path';
import { RalphError } from '../errors.js';
import { runGates } from '../gates/run-gates.js';
import { Containment } from '../process/containment.js';
import type { GateEnvironment, GateOutcome, GatePlace, GateSpec } from '../gates/types.js';
import { boxGatePlace } from '../box/box-gate-place.js';
import { openBox, type BoxChoice, type BoxRequest } from '../box/open-box.js';
import { branchCommit, isAncestor, mergeCommit, moveBranch } from '../git/integration-branch.js';
import { openIntegrationWorktree, resetWorktree } from '../git/integration-worktree.js';
import { LOOP_RECORD_FILES, mergedTree } from '../git/merge-check.js';
import { sharedRecordDir } from '../git/record-dir.js';
import { withPathsFrom } from '../git/tree-edit.js';
import { GitStopped } from '../git/safe-git.js';
import { branchProgress } from './branch-task-list.js';
import { appendIntegration } from './integration-records.js';
import { integrationOrder, type ListRef } from './integration-order.js';
import { loopCommitsCheck } from './loop-commits.js';
import { prepareBranch } from './prepare-branch.js';

/** What became of one list's branch. */
export type ListOutcome = { list: string; branch: string } & (
  | /** Merged, and every gate passed on the result. */ { state: 'merged'; commit: string }
  | /** The integration branch held its work already. */ { state: 'already_in' }
  | /** Not merged: its branch is missing, or its task list has stories open. */ { state: 'not_complete'; why: string }
  | /** Left out: the merge conflicts in these files. */ { state: 'conflicts'; files: string[] }
  | /** Left out: a gate failed on the merged result. */ {
      state: 'gate_failed';
      gate: string;
      line: string;
      log?: string;
    }
  | /** Left out: a list it depends on was not merged. */ { state: 'waits'; on: string[] }
  | /** Left out: its branch holds commits its loop never made (ralph's record of the loop says so). */ {
      state: 'unreported';
      why: string;
    }
  | /** Not tried: ralph was interrupted first (or during its gates). */ { state: 'interrupted' }
);

/** The outcome of one `ralph integrate`. */
export interface Integration {
  into: string;
  /** The integration branch's commit at the end: the last merge that passed the gates. */
  head: string;
  /** Where the merges were made and the gates ran. */
  worktree: string;
  lists: ListOutcome[];
}

export interface IntegrateOptions {
  /** The user's checkout: never written, never switched. */
  root: string;
  /** Every list that may be merged, in list order; their dependsOn orders the merges. */
  lists: readonly ListRef[];
  /** The integration branch: made from `start` when missing, else it must be one ralph made. */
  into: string;
  /** Where a new integration branch starts (default: the user's HEAD). */
  start?: string;
  /** The integration branch's worktree (ralph/worktrees/<slug>). */
  worktree: string;
  /** The user's quality gates (from the checkout's ralph/config.json, never from a loop's branch). */
  gates: readonly GateSpec[];
  env: GateEnvironment;
  signal?: AbortSignal;
  /** Interrupted again: the running gate's process group is killed without the grace period. */
  force?: AbortSignal;
  /** Called as each list's outcome is known. */
  onOutcome?: (outcome: ListOutcome) => void;
  /** Called as a list's merge is checked by the gates. */
  onGates?: (list: ListRef) => void;
  /** A warning line: processes a gate left behind, which were ended; a branch no loop here recorded. */
  onWarning?: (line: string) => void;
  /**
   * A list's branch that no loop of this repository recorded: `merge` it, saying its commits are not
   * checked (a branch run elsewhere: CI, another machine), or `leave_out` — when every list's loop
   * ran here (`ralph run --parallel`), such a branch is one some other process made.
   */
  unrecorded?: 'merge' | 'leave_out';
  /** The box the gates run in, made for the integration worktree (a gate runs the loops' code). */
  box?: Omit<BoxRequest, 'root'>;
  /** The box's line, once it is made: which box the gates have, or why none. */
  onBox?: (choice: BoxChoice) => void;
}

/** States in which a list's work is on the integration branch. */
const IN = new Set<ListOutcome['state']>(['merged', 'already_in']);

/**
 * Merges the branch of each list whose work is complete into the integration branch, one at a
 * time in dependency then list order, and runs the gates on each merge before the branch moves to
 * it. A branch that conflicts, fails a gate or holds commits its loop never made is left out. Only
 * the integration branch, its worktree and ralph's record of its commits are written: the loops'
 * branches and the user's checkout stay as they are.
 */
export async function integrate(options: IntegrateOptions): Promise<Integration> {
  const { root, worktree, signal } = options;
  const records = await sharedRecordDir(root);
  const head = await prepareBranch({ ...options, records });
  await openIntegrationWorktree(root, worktree, { branch: options.into, commit: head }, signal);
  // The gates' processes are kept as a run's are: each gate in its own cgroup (or marked), and what
  // leaves its group ended. Its own identity, the worktree's: a loop's cgroups are never touched.
  const containment = new Containment();
  await containment.open(worktree, options.env);
  const boxed = options.box ? await openBox({ ...options.box, root: worktree }) : undefined;
  if (boxed) options.onBox?.(boxed);
  const place = boxed?.box ? { place: boxGatePlace(boxed.box, worktree) } : {};
  try {
    return await integrateAll({ ...options, ...place, records }, { head, containment });
  } finally {
    await boxed?.box?.close().catch(() => undefined);
    await containment.close();
  }
}

async function integrateAll(
  options: IntegrateOptions & { records: string; place?: GatePlace },
  start: { head: string; containment: Containment },
): Promise<Integration> {
  const { into, worktree, signal, containment } = { ...options, ...start };
  let { head } = start;
  const outcomes: ListOutcome[] = [];
  const leftOut = new Set<string>();
  let step = 0;
  for (const list of integrationOrder(options.lists)) {
    const outcome: ListOutcome = signal?.aborted
      ? { list: list.name, branch: list.branch, state: 'interrupted' }
      : await integrateOne(list, { ...options, head, step: ++step, leftOut, containment }).catch((error: unknown) => {
          // The interrupt ended one of its git commands: this list was not tried to the end.
          if (error instanceof GitStopped && error.why === 'interrupt')
            return { list: list.name, branch: list.branch, state: 'interrupted' } as const;
          throw error;
        });
    if (outcome.state === 'merged') head = outcome.commit;
    if (!IN.has(outcome.state)) leftOut.add(list.name);
    outcomes.push(outcome);
    options.onOutcome?.(outcome);
  }
  return { into, head, worktree, lists: outcomes };
}

interface Step extends IntegrateOptions {
  records: string;
  place?: GatePlace;
  head: string;
  containment: Containment;
  step: number;
  leftOut: ReadonlySet<string>;
}

/** Merges one list's branch if it is complete and all its loop's work, then gates the merge (gateThenMove). */
async function integrateOne(list: ListRef, step: Step): Promise<ListOutcome> {
  const { root, head, signal } = step;
  const named = { list: list.name, branch: list.branch };
  const waitsOn = list.dependsOn.filter((name) => step.leftOut.has(name));
  if (waitsOn.length > 0) return { ...named, state: 'waits', on: waitsOn };
  const tip = await branchCommit(root, list.branch, signal);
  if (!tip) return { ...named, state: 'not_complete', why: `no branch ${list.branch}` };
  const progress = await branchProgress(root, list, head, signal);
  if (!progress.complete) return { ...named, state: 'not_complete', why: progress.why };
  if (await isAncestor(root, tip, head, signal)) return { ...named, state: 'already_in' };
  const loops = await loopCommitsCheck(root, list, tip, signal);
  if (typeof loops === 'object') return { ...named, state: 'unreported', why: loops.leftOut };
  if (loops === 'unrecorded' && step.unrecorded === 'leave_out')
    return { ...named, state: 'unreported', why: `no loop of this repository recorded the commits of ${list.branch}` };
  if (loops === 'unrecorded')
    step.onWarning?.(
      `${list.name}: no loop here recorded ${list.branch} (it ran elsewhere, or before ralph kept that record): its commits are not checked against its loop's`,
    );
  const merged = await mergedTree(root, head, tip, signal);
  if (merged.state === 'conflicts') return { ...named, state: 'conflicts', files: merged.files };
  if (merged.state === 'skipped')
    throw new RalphError(
      'setup',
      `cannot merge ${list.branch}: ${merged.why}`,
      'ralph integrate needs git 2.38 or later',
    );
  // The loops' records stay the integration branch's own: each loop's are about its list alone.
  const tree = await withPathsFrom(root, merged.tree, head, LOOP_RECORD_FILES, signal);
  const commit = await mergeCommit(root, tree, [head, tip], `ralph: merge ${list.branch} (list ${list.name})`, signal);
  return gateThenMove(list, commit, step);
}

/**
 * Runs the gates on the merge in the worktree, detached at it, and only when they pass records the
 * merge and moves the integration branch from `head` to it: a gate that kills ralph leaves the
 * branch where it was, so the next integration gates the merge again.
 */
async function gateThenMove(list: ListRef, commit: string, step: Step): Promise<ListOutcome> {
  const { root, head, signal } = step;
  const named = { list: list.name, branch: list.branch };
  await resetWorktree(step.worktree, commit, signal);
  step.onGates?.(list);
  const report = await runGates(step.gates, {
    cwd: step.worktree,
    logsDir: join(step.worktree, 'ralph/logs'),
    iteration: step.step,
    env: step.env,
    request: `the merge of ${list.branch} into ${step.into}`,
    ...(signal ? { signal } : {}),
    ...(step.force ? { force: step.force } : {}),
    containment: { run: step.containment, warn: (message) => step.onWarning?.(`warning: ${message}`) },
    ...(step.place ? { place: step.place } : {}),
  });
  if (report.passed) {
    const at = new Date().toISOString();
    const gated = step.gates.length > 0;
    await appendIntegration(step.records, { commit, branch: step.into, kind: 'merge', lists: [list.name], gated, at });
    // No signal: with the gates passed and the merge recorded, the move is one quick ref update to finish.
    await moveBranch(root, step.into, { to: commit, expected: head, why: `ralph integrate: ${list.name}` });
    return { ...named, state: 'merged', commit };
  }
  // The worktree back to before this merge; the merge commit stays reachable from no branch.
  await resetWorktree(step.worktree, head);
  if (report.interrupted) return { ...named, state: 'interrupted' };
  return { ...named, state: 'gate_failed', ...firstFailure(report.outcomes) };
}

/** The first failed gate: its name, the first line of its failure, and its log. */
function firstFailure(outcomes: readonly GateOutcome[]): { gate: string; line: string; log?: string } {
  const failed = outcomes.find((outcome) => outcome.status === 'failed');
  if (!failed || failed.status !== 'failed') return { gate: 'gates', line: 'a gate failed' };
  const how = failed.timedOut ? 'timed out' : `exit ${failed.exitCode ?? 'signal'}`;
  return { gate: failed.name, line: failed.details[0] ?? `${failed.name} failed (${how})`, log: failed.logPath };
}
