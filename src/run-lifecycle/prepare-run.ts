import { readFileWithin } from '../files/file-within.js';
import type { Enclose } from '../agent/ask-agent.js';
import { agentEnvironment } from './agent-environment.js';
import { resolve } from 'node:path';
import { loadConfig } from '../config/load-config.js';
import { resolveSettings, type ResolvedSettings } from '../config/resolve-settings.js';
import type { RunOptionKey } from '../config/run-options.js';
import { RalphError } from '../errors.js';
import { LOOP_OWNED_PATHS, shownPath, type RalphPaths } from '../files/paths.js';
import type { RunPaths } from '../files/record-paths.js';
import { readRunState } from '../files/run-state.js';
import { parseTasks } from '../files/tasks.js';
import type { TaskList } from '../domain/tasks.js';
import { readOwnFile } from '../files/own-file.js';
import { replaceOwnFile } from '../files/replace-own-file.js';
import { addToExclude, notYetIgnored } from '../git/ignored-paths.js';
import { readTemplate } from '../templates.js';
import { runChecks, type PreflightOptions, type CheckedStart } from './preflight.js';
import { failed, refusalOf, type Check } from './check.js';
import { checkWorkTree } from './work-tree-guard.js';
import { chosenAgent } from './agent-invocation.js';
import { checkAgentKind, checkFallbackInstalled } from './agent-kind-check.js';

/** The resolved settings and the options of the start checks (dry run and real run alike). */
export interface StartPlan {
  resolved: ResolvedSettings;
  checks: PreflightOptions;
}

/** Everything a run starts with once every start check passed. */
export interface PreparedRun extends StartPlan {
  ready: CheckedStart;
}

/** The configuration (flag > environment > config > default) and what the start checks look at. */
export async function planStart(options: StartOptions): Promise<StartPlan> {
  const { cwd, root, paths, env } = options;
  const shown = (path: string) => shownPath(cwd, path);
  const resolved = resolveSettings(options.flags, env, await loadConfig(paths.config, shown(paths.config)));
  checkAgentKind(resolved);
  const { settings } = resolved;
  // A prompt named on the command line or in the environment is relative to where ralph was started.
  const promptBase = ['flag', 'env'].includes(resolved.sources.prompt) ? cwd : root;
  const checks: PreflightOptions = {
    cwd,
    root,
    promptPath: resolve(promptBase, settings.prompt),
    tasksPath: paths.tasks,
    records: paths.records,
    review: !settings.skipReview,
    yes: options.yes,
    skipPreflight: settings.skipPreflight,
    agentKind: settings.agent,
    ...(settings.sandbox === false ? { agentBin: chosenAgent(resolved).bin } : {}),
    sandboxed: settings.sandbox !== false,
    hostPath: env.PATH ?? '',
    skipPermissions: resolved.agent.skipPermissions,
    agentEnv: agentEnvironment(env, resolved.agent.env),
    uid: process.getuid?.(),
  };
  await checkFallbackInstalled(resolved, cwd, checks.agentEnv.PATH);
  return { resolved, checks };
}

/** What the start checks need to know. */
export interface StartOptions {
  cwd: string;
  root: string;
  paths: RunPaths;
  flags: Partial<Record<RunOptionKey, unknown>>;
  env: NodeJS.ProcessEnv;
  yes: boolean;
  /** Aborts the git commands of the checks (the run's Ctrl-C or SIGTERM). */
  signal?: AbortSignal;
}

/** The work tree check of a start: no git operation half done, no foreign uncommitted change unless allowed. */
export async function checkStartTree(plan: StartPlan, paths: RunPaths, signal?: AbortSignal): Promise<void> {
  const { leftBehind } = await readRunState(paths.records, '');
  const { allowDirty } = plan.resolved.settings;
  await checkWorkTree(paths.root, { allowDirty, leftBehind: leftBehind ?? {}, ...(signal ? { signal } : {}) });
}

/** The work tree check as one check among the others (dry run and real run): its refusal is listed, not thrown. */
export async function treeCheck(plan: StartPlan, paths: RunPaths, signal?: AbortSignal): Promise<Check> {
  try {
    await checkStartTree(plan, paths, signal);
    const { allowDirty } = plan.resolved.settings;
    const detail = allowDirty ? 'uncommitted changes allowed (--allow-dirty)' : 'no uncommitted change outside ralph/';
    return { name: 'work tree', status: 'ok', detail };
  } catch (error) {
    if (error instanceof RalphError) return failed('work tree', error);
    throw error;
  }
}

/** What a real run hears of its start checks as they go. */
export interface StartHooks {
  /** The plan, known before any check can refuse the start (and the task list, when it parses). */
  onPlan?(plan: StartPlan, tasks: TaskList | undefined): void;
  /** The run's box, opened before the agent's program is first asked anything (ask-agent.ts). */
  openBox?(plan: StartPlan): Promise<Enclose | undefined>;
}

/**
 * The start checks of a real run, in order: configuration, task list, prompt, pending human, agent,
 * log folder, then the work tree — the dry run's own collection (`runChecks`), and like the dry run
 * it names every failed check at once (`refusalOf`). Nothing here calls the agent.
 */
export async function checkStart(options: StartOptions, hooks: StartHooks = {}): Promise<PreparedRun> {
  const plan = await planStart(options);
  // The work tree check only reads: its git processes run while the agent answers --version (and
  // its API is probed), not after. Its result joins the others' in the order above, once its git exited.
  const tree = treeCheck(plan, options.paths, options.signal);
  tree.catch(() => undefined);
  if (hooks.onPlan) {
    const parsed = parseTasks(readFileWithin(options.root, options.paths.tasks) ?? '');
    hooks.onPlan(plan, parsed.ok ? parsed.tasks : undefined);
  }
  const enclose = await hooks.openBox?.(plan);
  const { checks, ready } = await runChecks({ ...plan.checks, ...(enclose ? { enclose } : {}) }).finally(() =>
    tree.catch(() => undefined),
  );
  const refusal = refusalOf([...checks, await tree]);
  if (refusal) throw refusal;
  if (!ready) throw new Error('start checks: no failure and nothing ready');
  return { ...plan, ready };
}

/**
 * What a real run (not a dry run) sets up before its first iteration: git ignores ralph's files,
 * progress.txt exists. git is asked which files it does not ignore yet at once, beside the start
 * checks (it only reads); what it answers is written by the function returned, once they passed.
 */
export function setUpRun(paths: RalphPaths): () => Promise<void> {
  const missing = notYetIgnored(paths.root, LOOP_OWNED_PATHS);
  // Awaited by the function below; a start refused before that must not leave it unhandled.
  missing.catch(() => undefined);
  return async () => {
    try {
      await addToExclude(paths.root, await missing);
    } catch (error) {
      if (error instanceof RalphError) throw error;
      const said = (error as Error).message.split('\n')[0];
      throw new RalphError(
        'setup',
        `cannot make git ignore ralph's own files: ${said}`,
        'check the repository with `git status`',
      );
    }
    if ((await readOwnFile(paths.progress)) === undefined) {
      const template = await readTemplate('progress.txt');
      await replaceOwnFile(paths.root, paths.progress, template);
    }
  };
}
