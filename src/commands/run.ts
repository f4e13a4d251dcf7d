import type { Writable } from 'node:stream';
import pc from 'picocolors';
import type { RunOptionKey } from '../config/run-options.js';
import { RalphError } from '../errors.js';
import { pathExists } from '../files/missing-file.js';
import { ralphPaths, shownPath, type RalphPaths } from '../files/paths.js';
import { runPaths } from '../git/run-paths.js';
import { findRepoRoot } from '../git/repository.js';
import { chooseTaskList, type ChosenList } from '../lists/chosen-list.js';
import { finishRun } from '../run-lifecycle/finish-run.js';
import { closeRun, openRun } from '../run-lifecycle/open-run.js';
import { checkStart, planStart, treeCheck } from '../run-lifecycle/prepare-run.js';
import { runUnderLock, type StartInput } from '../run-lifecycle/run-under-lock.js';
import type { Terminal } from '../run-lifecycle/run-context.js';
import { detectCi, Screen } from '../ui/screen.js';

export interface RunCommandOptions {
  cwd: string;
  /** Values given as flags (already checked); absent keys fall through to env, config, default. */
  flags: Partial<Record<RunOptionKey, unknown>>;
  dryRun?: boolean;
  /** --no-gates: skip the quality gates for this run. */
  noGates?: boolean;
  /** --reset-resumes: clear the resume counter (a human fixed the cause). */
  resetResumes?: boolean;
  /** --accept-removed: the stories missing from the list since ralph last saw it were removed on purpose. */
  acceptRemoved?: boolean;
  /** --accept-approvals: the list's approvals ralph has no record of are the person's word. */
  acceptApprovals?: boolean;
  /** --yes: run even the example task list. */
  yes?: boolean;
  /** The command line's own words, kept in last-run.json for `ralph answer --run` (replay-args.ts). */
  runArgs?: readonly string[];
  /** --worktree: run in the list's own git worktree under ralph/worktrees/. */
  worktree?: boolean;
  /** --from: the start point of a new worktree branch (default HEAD). */
  from?: string;
  /** Set by --worktree for the run in the worktree: the repository's top and the list. */
  worktreeOf?: { root: string; list: ChosenList };
  env?: NodeJS.ProcessEnv;
  stdout?: Writable;
  stderr?: Writable;
}

/**
 * `ralph run`: find the repository and take the lock at once — so every later refusal is recorded in
 * last-run.json — then prepare the run, wire the loop to the real world, run it, and finish with one
 * ending. Resolves to the exit code.
 */
export async function runCommand(options: RunCommandOptions): Promise<number> {
  if (options.worktree) return await runInWorktree(options);
  const terminal = terminalFor(options);
  const root = await findRepoRoot(options.cwd);
  const given = options.flags.tasks as string | undefined;
  const tasks = (await chooseTaskList(root, options.cwd, given, terminal.env)).file;
  // A dry run writes nothing, so it moves nothing either: it reads the records as they are.
  const say = options.dryRun ? undefined : (line: string) => terminal.out.line(line);
  const paths = await runPaths(root, { tasks, ...(say ? { say } : {}) });
  const start: StartInput = {
    cwd: options.cwd,
    root,
    paths,
    flags: options.flags,
    env: terminal.env,
    yes: options.yes === true,
  };
  if (options.dryRun)
    return await dryRunCommand(start, terminal, {
      resetResumes: options.resetResumes === true,
      noGates: options.noGates === true,
    });
  await requireRalphFolder(paths, options.cwd, () => checkStart(start));
  const run = await openRun(options, terminal, paths);
  try {
    // Printed inside the try: the finally below must close the screen once it printed anything.
    if (run.lockWarning) terminal.out.line(pc.yellow(`warning: ${run.lockWarning}`));
    const end = await runUnderLock(start, run);
    const { out, env, github } = terminal;
    const { firstIteration, maxIterations, agentVersion, box, listeners } = run.start.facts;
    return await finishRun(end, {
      paths,
      out,
      env,
      github,
      startedAt: run.startedAt,
      startedMonotonicMs: run.startedMonotonicMs,
      firstIteration,
      maxIterations,
      ...(agentVersion === undefined ? {} : { agentVersion }),
      strayProcessesEnded: run.containment.ended,
      containment: run.containment.choice,
      ...(box ? { box: { mode: box.mode, reason: box.reason } } : {}),
      outlets: listeners,
      ...(options.runArgs ? { runArgs: options.runArgs } : {}),
    });
  } finally {
    await closeRun(run);
  }
}

/**
 * `--worktree`: the list's worktree made ready, then the ordinary run in it, with the worktree as
 * its root and its ralph/tasks.json as the list: the main checkout is never written.
 */
async function runInWorktree(options: RunCommandOptions): Promise<number> {
  const root = await findRepoRoot(options.cwd);
  const env = options.env ?? process.env;
  const chosen = await chooseTaskList(root, options.cwd, options.flags.tasks as string | undefined, env);
  const { prepareListWorktree } = await import('../lists/list-worktree.js');
  const { dir, said } = await prepareListWorktree(root, chosen, options.from, options.dryRun === true);
  const stdout = options.stdout ?? process.stdout;
  for (const line of said) stdout.write(`${line}\n`);
  const flags = { ...options.flags, tasks: ralphPaths(dir).tasks };
  return await runCommand({ ...options, worktree: false, cwd: dir, flags, worktreeOf: { root, list: chosen } });
}

/**
 * `--dry-run`: the start checks and the settings, shown; nothing is locked, written or spawned. Its
 * printer (and `--worktree`'s set-up) are loaded only when asked for: a run starts its agent sooner.
 */
async function dryRunCommand(
  start: StartInput,
  terminal: Terminal,
  flags: { resetResumes: boolean; noGates: boolean },
): Promise<number> {
  try {
    const plan = await planStart(start);
    // A failing work tree is one check among the others: the dry run still lists them all.
    const tree = await treeCheck(plan, start.paths);
    const { dryRun } = await import('../run-lifecycle/dry-run.js');
    return await dryRun(plan.resolved, plan.checks, terminal.out, {
      records: start.paths.records,
      tree,
      ...flags,
      env: terminal.env,
    });
  } finally {
    await terminal.out.close();
  }
}

/**
 * ralph/ must exist before the lock can be written in it: without it there is nothing to record
 * in either. The start checks then say what is missing (and how a ralph.sh layout is imported).
 */
async function requireRalphFolder(paths: RalphPaths, cwd: string, checks: () => Promise<unknown>): Promise<void> {
  if (await pathExists(paths.dir)) return;
  await checks();
  throw new RalphError('setup', `${shownPath(cwd, paths.dir)} not found`, 'run `ralph init` to create it');
}

function terminalFor(options: RunCommandOptions): Terminal {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  const env = options.env ?? process.env;
  const { ci, github } = detectCi(env);
  const tty = (stdout as { isTTY?: boolean }).isTTY === true && !ci;
  return {
    stdout,
    stderr,
    env,
    // The Actions runner stamps every line itself; elsewhere in CI ralph stamps its own.
    out: new Screen(stdout, { tty, timestamps: ci && !github, github, stderr }),
    tty,
    github,
  };
}
