import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gitOutput, type GitOptions } from './safe-git.js';

/**
 * `tree` with each of `paths` as `source` has it (or without it, where `source` has none): the
 * integration branch keeps its own loop records whatever a merged branch holds there. Done in a
 * scratch index outside the repository, so neither a work tree nor the repository's index changes.
 */
export async function withPathsFrom(
  root: string,
  tree: string,
  source: string,
  paths: readonly string[],
  signal?: AbortSignal,
): Promise<string> {
  const scratch = await mkdtemp(join(tmpdir(), 'ralph-index-'));
  const options: GitOptions = { env: { GIT_INDEX_FILE: join(scratch, 'index') }, ...(signal ? { signal } : {}) };
  try {
    await gitOutput(root, ['read-tree', tree], options);
    for (const path of paths) {
      // `<mode> <type> <hash>\t<path>`, NUL-ended; nothing when the source has no such file.
      const [entry] = (await gitOutput(root, ['ls-tree', '-z', source, '--', path], options)).split('\0');
      const [mode, type, hash] = entry?.split('\t')[0]?.split(' ') ?? [];
      const update =
        mode && type === 'blob' && hash
          ? ['update-index', '--add', '--cacheinfo', `${mode},${hash},${path}`]
          : ['update-index', '--force-remove', '--', path];
      await gitOutput(root, update, options);
    }
    return (await gitOutput(root, ['write-tree'], options)).trim();
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
