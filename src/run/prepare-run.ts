import { writeFile } from 'node:fs/promises';
import { relative, resolve } from 'node:path';
import { loadConfig } from '../config/load-config.js';
import { resolveSettings, type ResolvedSettings } from '../config/resolve-settings.js';
import type { RunOptionKey } from '../config/run-options.js';
import { ownFile, RalphError } from '../errors.js';
import { LOOP_OWNED_PATHS, type RalphPaths } from '../files/paths.js';
import { readRunState } from '../files/run-state.js';
import { readOptional } from '../files/signal-files.js';
import { ensureIgnored } from '../git/repository.js';
import { readTemplate } from '../templates.js';
import { prepareInvocation, type AgentInvocation } from './agent-invocation.js';
import { preflight, type ReadyRun } from './preflight.js';
import { checkWorkTree } from './work-tree-guard.js';

/** Everything a run starts with once every start check passed. */
export interface PreparedRun {
  resolved: ResolvedSettings;
  ready: ReadyRun;
  invocation: AgentInvocation;
}

/**
 * The start checks, in order: configuration, prompt, task list, pending human, agent, log folder,
 * work tree, sandbox. Each failure is a RalphError; nothing here calls the agent or changes a file.
 */
export async function checkStart(options: {
  cwd: string;
  root: string;
  paths: RalphPaths;
  flags: Partial<Record<RunOptionKey, unknown>>;
  env: NodeJS.ProcessEnv;
}): Promise<PreparedRun> {
  const { cwd, root, paths, env } = options;
  const shown = (path: string) => relative(cwd, path) || path;
  const resolved = resolveSettings(options.flags, env, await loadConfig(paths.config, shown(paths.config)));
  const { settings } = resolved;
  // A prompt named on the command line or in the environment is relative to where ralph was started.
  const promptBase = ['flag', 'env'].includes(resolved.sources.prompt) ? cwd : root;
  const ready = await preflight({
    cwd,
    root,
    promptPath: resolve(promptBase, settings.prompt),
    ...(settings.sandbox === false ? { agentBin: settings.agentBin } : {}),
  });
  const { leftBehind } = await readRunState(paths.state, '');
  await checkWorkTree(root, { allowDirty: settings.allowDirty, leftBehind: leftBehind ?? {} });
  const invocation = await prepareInvocation(resolved, root, cwd, ready.agentPath);
  return { resolved, ready, invocation };
}

/** What a real run (not a dry run) sets up before its first iteration: git ignores ralph's files, progress.txt exists. */
export async function setUpRun(paths: RalphPaths): Promise<void> {
  try {
    await ensureIgnored(paths.root, LOOP_OWNED_PATHS);
  } catch (error) {
    if (error instanceof RalphError) throw error;
    const said = (error as Error).message.split('\n')[0];
    throw new RalphError('setup', `cannot make git ignore ralph's own files: ${said}`, 'check the repository with `git status`');
  }
  if ((await readOptional(paths.progress)) === undefined) {
    const template = await readTemplate('progress.txt');
    await ownFile(paths.progress, 'write', () => writeFile(paths.progress, template));
  }
}
