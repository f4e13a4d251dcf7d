import { join } from 'node:path';
import { loadConfig } from '../config/load-config.js';
import { gateSpecs } from '../config/resolve-settings.js';
import { RalphError } from '../errors.js';
import type { GateEnvironment } from '../gates/types.js';
import { replaceOwnFile } from '../files/replace-own-file.js';
import { ralphPaths } from '../files/paths.js';
import { branchCommit } from '../git/integration-branch.js';
import { ensureIgnored } from '../git/ignored-paths.js';
import { findTaskLists, LISTS_DIR, WORKTREES_DIR, worktreeDir } from '../lists/task-lists.js';
import { exitCodeFor } from '../loop/termination.js';
import { oneLine } from '../text/neutralise.js';
import { integrate } from './integrate.js';
import { integrationBox } from './gate-box.js';
import { boxLine } from '../box/box-gate-place.js';
import { integrationRecord, isLeftOut, outcomeLine, type IntegrationRecord } from './integration-report.js';

/** Where the last integration's record is kept, under ralph/logs/. */
export const INTEGRATION_RECORD = 'integrate-last-run.json';

export interface IntegrateListsOptions {
  /** The integration branch; default a new `ralph/integration/<date>-<n>`. */
  into?: string;
  /** The gates' (gateEnvironment's): the runner's variables never reach a gate. */
  env: GateEnvironment;
  signal?: AbortSignal;
  /** Interrupted again: the running gate's process group is killed without the grace period. */
  force?: AbortSignal;
  /** Every list's loop ran here (`--parallel --integrate`): a branch no loop recorded is left out. */
  ranHere?: boolean;
  /**
   * The commit a new integration branch starts from (default the checkout's HEAD now): the one HEAD
   * was at when `--parallel` began, which no loop's agent could move since.
   */
  start?: string;
  /** Each line of the outcome as it is known, the agent's words in it neutralised. */
  onLine?: (line: string) => void;
  now?: Date;
}

/** What one integration did: its exit code and its record (also in ralph/logs/integrate-last-run.json). */
export interface IntegrationRun {
  exitCode: number;
  record: IntegrationRecord;
  /** Why the record could not be written, if it could not. */
  recordError?: string;
}

/**
 * `ralph integrate`, and the end of `ralph run --parallel --integrate`: merges the branches of the
 * lists under ralph/lists/ whose work is complete into an integration branch, in its own worktree,
 * with the gates of the checkout's ralph/config.json after each merge. Exit 0 when every complete
 * list is merged, 2 when one was left out (a human decides what becomes of it), 130 when interrupted.
 */
export async function integrateLists(root: string, options: IntegrateListsOptions): Promise<IntegrationRun> {
  const lists = await findTaskLists(root);
  if (lists.length === 0)
    throw new RalphError(
      'setup',
      `no task lists under ${LISTS_DIR}/: nothing to integrate`,
      `add one as ${LISTS_DIR}/<name>.json and run it (ralph run --worktree --tasks ${LISTS_DIR}/<name>.json)`,
    );
  const paths = ralphPaths(root);
  // The user's gates from the checkout, never from a loop's branch: the agent could have emptied those.
  const config = await loadConfig(paths.config, 'ralph/config.json');
  const gates = gateSpecs(config);
  const into = options.into ?? (await freshBranch(root, options.now ?? new Date()));
  await ensureIgnored(root, [`${WORKTREES_DIR}/`]);
  const say = (line: string) => options.onLine?.(oneLine(line));
  say(`ralph integrate: into ${into}${gates.length ? '' : ' (no gates in ralph/config.json: merges are not checked)'}`);
  const integration = await integrate({
    root,
    lists,
    into,
    worktree: worktreeDir(root, into),
    gates,
    env: options.env,
    unrecorded: options.ranHere ? 'leave_out' : 'merge',
    ...(options.start ? { start: options.start } : {}),
    box: integrationBox(config, options.env),
    onBox: (choice) => say(`  ${boxLine(choice)}`),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.force ? { force: options.force } : {}),
    onGates: (list) => say(`  ▸ ${list.name}: gates on the merge of ${list.branch}`),
    onWarning: (line) => say(`    ${line}`),
    onOutcome: (outcome) => say(`  ${outcomeLine(outcome, root)}`),
  });
  const exitCode = integration.lists.some((outcome) => outcome.state === 'interrupted')
    ? exitCodeFor({ reason: 'interrupted', signal: 'SIGINT' })
    : integration.lists.some(isLeftOut)
      ? exitCodeFor({ reason: 'blocked', message: 'a branch was left out' })
      : exitCodeFor({ reason: 'complete' });
  const record = integrationRecord(root, integration, exitCode);
  say(
    `ralph integrate: ${record.merged.length} merged, ${record.leftOut.length} left out — ${into} at ${integration.head.slice(0, 12)} (worktree ${record.worktree})`,
  );
  const file = join(paths.logs, INTEGRATION_RECORD);
  const recordError = await replaceOwnFile(root, file, `${JSON.stringify(record, null, 2)}\n`).then(
    () => undefined,
    (error: unknown) => (error instanceof Error ? error.message : String(error)),
  );
  return { exitCode, record, ...(recordError ? { recordError } : {}) };
}

/** `ralph/integration/<date>-<n>`, the first such branch that does not exist yet. */
async function freshBranch(root: string, now: Date): Promise<string> {
  const date = now.toISOString().slice(0, 10);
  for (let run = 1; run < 1000; run++) {
    const branch = `ralph/integration/${date}-${run}`;
    if (!(await branchCommit(root, branch))) return branch;
  }
  throw new RalphError('setup', `ralph/integration/${date}-1 to -999 all exist`, 'name the branch with --into');
}
