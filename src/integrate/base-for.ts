import { loadConfig } from '../config/load-config.js';
import { gateSpecs } from '../config/resolve-settings.js';
import { integrationBox } from './gate-box.js';
import { RalphError } from '../errors.js';
import type { GateEnvironment } from '../gates/types.js';
import { ralphPaths } from '../files/paths.js';
import { ensureIgnored } from '../git/ignored-paths.js';
import { commitOf } from '../git/merge-check.js';
import { WORKTREES_DIR, worktreeDir } from '../lists/task-lists.js';
import { oneLine } from '../text/neutralise.js';
import { integrate } from './integrate.js';
import { dependenciesOf, type ListRef } from './integration-order.js';
import { isIn, outcomeLine } from './integration-report.js';

export interface BaseOptions {
  /** The gates' (gateEnvironment's): the runner's variables never reach a gate. */
  env: GateEnvironment;
  signal?: AbortSignal;
  /** Interrupted again: the running gate's process group is killed without the grace period. */
  force?: AbortSignal;
  /** Each merge's outcome line, for the supervisor's output. */
  onLine?: (line: string) => void;
  /** Where a new base branch starts: the commit HEAD was at when the parallel run began (default HEAD now). */
  start?: string;
}

/** The integration branch a list with dependsOn starts from: `ralph/integration/for-<name>`. */
export function baseBranch(list: ListRef): string {
  return `ralph/integration/for-${list.name}`;
}

/**
 * The ref the worktree of `list` starts from (`ralph run --worktree --from <ref>`): for a list
 * that depends on others, its integration branch, made or brought up to date with the work of
 * every list it depends on (directly or through others), merged and checked by the gates as
 * `ralph integrate` does; for a list that depends on none, the checkout's HEAD. A dependency whose
 * work is not complete, or could not be merged, is a set-up error naming it: the list must not
 * start from a base without it.
 */
export async function baseFor(
  root: string,
  list: ListRef,
  lists: readonly ListRef[],
  options: BaseOptions,
): Promise<string> {
  const dependencies = dependenciesOf(list, lists);
  if (dependencies.length === 0) {
    const head = options.start ?? (await commitOf(root, 'HEAD', options.signal ? { signal: options.signal } : {}));
    if (!head) throw new RalphError('setup', 'this repository has no commit to start from', 'commit your work first');
    return head;
  }
  const into = baseBranch(list);
  const config = await loadConfig(ralphPaths(root).config, 'ralph/config.json');
  await ensureIgnored(root, [`${WORKTREES_DIR}/`]);
  const integration = await integrate({
    root,
    lists: dependencies,
    into,
    worktree: worktreeDir(root, into),
    gates: gateSpecs(config),
    box: integrationBox(config, options.env),
    env: options.env,
    // The supervisor ran every dependency's loop here: a branch none of them recorded is not theirs.
    unrecorded: 'leave_out',
    ...(options.start ? { start: options.start } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.force ? { force: options.force } : {}),
    onOutcome: (outcome) => options.onLine?.(oneLine(`${list.name} base: ${outcomeLine(outcome, root)}`)),
    onWarning: (line) => options.onLine?.(oneLine(`${list.name} base: ${line}`)),
  });
  const missing = integration.lists.find((outcome) => !isIn(outcome));
  if (missing)
    throw new RalphError(
      'setup',
      oneLine(
        `${list.name} depends on ${missing.list}, whose work is not in its base ${into}: ${outcomeLine(missing, root).slice(2)}`,
      ),
      `finish ${missing.list} (or resolve it), then run ${list.name} again`,
    );
  return into;
}
