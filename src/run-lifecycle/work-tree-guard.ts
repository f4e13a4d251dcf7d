import { RalphError } from '../errors.js';
import type { WorkTreeChanges } from '../domain/work-tree-changes.js';
import { foreignChanges, pendingOperation, uncommittedChanges } from '../git/work-tree.js';

/** How many changed paths a refusal lists before it says how many more there are. */
const LISTED_PATHS = 10;

/**
 * The work tree must be the agent's to commit: no merge, rebase, cherry-pick, revert or bisect half
 * done (always refused: the agent would commit conflict markers), and no uncommitted change outside
 * ralph/ but those the previous run itself left behind (unless allowed: the agent's first
 * `git add -A` would sweep a person's edits into its commit).
 */
export async function checkWorkTree(
  root: string,
  options: { allowDirty: boolean; leftBehind: WorkTreeChanges; signal?: AbortSignal },
): Promise<void> {
  // Both only read (git status takes no lock: neutral-config.ts): git answers while the files are looked at.
  const changes = options.allowDirty ? undefined : uncommittedChanges(root, options.signal);
  changes?.catch(() => undefined);
  const pending = await pendingOperation(root, options.signal);
  if (pending) throw new RalphError('setup', `${pending.what} in ${root}`, `${pending.howToEnd}, then run again`);
  if (changes === undefined) return;
  const foreign = foreignChanges(await changes, options.leftBehind);
  if (foreign.length === 0) return;
  const listed = foreign.slice(0, LISTED_PATHS).join(', ');
  const more = foreign.length > LISTED_PATHS ? ` and ${foreign.length - LISTED_PATHS} more` : '';
  throw new RalphError(
    'setup',
    `the work tree has uncommitted changes outside ralph/: ${listed}${more}`,
    "commit or stash them (the agent's commits would take them in), or pass --allow-dirty",
  );
}
