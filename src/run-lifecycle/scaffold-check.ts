import { gitOutput } from '../git/safe-git.js';
import { AGENT_KINDS, dialectOf } from '../agent/dialects.js';
import type { Check } from './check.js';

/** What `ralph init` writes that belongs in the repository's history: a client's hook settings too. */
const SCAFFOLD = [
  'ralph',
  ...new Set(AGENT_KINDS.flatMap((kind) => dialectOf(kind).stopHook?.settingsPath ?? [])),
  '.gitignore',
  '.github/workflows/ralph.yml',
];

/** How many untracked files the warning names before it counts the rest. */
const NAMED = 4;

/**
 * Whether ralph's scaffold is committed. A run accepts it uncommitted (ralph init's own files are
 * never a dirty work tree), but the agent's first `git add -A` then takes it into a feature
 * commit: the dry run says so, as a warning.
 */
export async function checkScaffold(root: string): Promise<Check> {
  const untracked = (await gitOutput(root, ['ls-files', '--others', '--exclude-standard', '--', ...SCAFFOLD]))
    .split('\n')
    .filter(Boolean);
  if (untracked.length === 0) return { name: 'scaffold', status: 'ok', detail: 'committed' };
  const named = untracked.slice(0, NAMED).join(', ');
  const more = untracked.length > NAMED ? ` and ${untracked.length - NAMED} more` : '';
  return {
    name: 'scaffold',
    status: 'warning',
    detail:
      `not committed (${named}${more}): the agent's first commit would take it in — ` +
      `git add ${commitPaths(untracked).join(' ')} && git commit -m "Set up ralph"`,
  };
}

/** What to `git add`: the scaffold's entries that hold an untracked file. */
function commitPaths(untracked: readonly string[]): string[] {
  return SCAFFOLD.filter((entry) => untracked.some((path) => path === entry || path.startsWith(`${entry}/`)));
}
