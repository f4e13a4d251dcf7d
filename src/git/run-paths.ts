import { ralphPaths } from '../files/paths.js';
import { moveOldRunState } from '../files/record-move.js';
import { withRecords, type RunPaths } from '../files/record-paths.js';
import { recordDir } from './record-dir.js';

/**
 * The paths a command works with: the work tree's files and ralph's records, whose folder is
 * resolved here once and passed on. With `say`, a command that writes the records first moves an
 * older ralph's run state into them (one line says so); without it (the Stop hook, which runs in
 * the agent's box and cannot write there) nothing moves.
 */
export async function runPaths(
  root: string,
  options: { tasks?: string; say?: (line: string) => void } = {},
): Promise<RunPaths> {
  const paths = withRecords(ralphPaths(root, options.tasks), await recordDir(root));
  if (options.say) {
    const moved = await moveOldRunState(paths);
    if (moved !== undefined) options.say(moved);
  }
  return paths;
}
