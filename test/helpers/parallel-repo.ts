import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { makeRepo, type Repo } from './e2e.js';

/**
 * A repository with these task lists under ralph/lists/, each of `stories` open stories, and
 * `files` of its own (a ralph/config.json with gates, say), committed.
 */
export async function repoWithLists(
  names: string[],
  stories = 1,
  extra: Record<string, object> = {},
  files: Record<string, string> = {},
): Promise<Repo> {
  const repo = await makeRepo({ stories: [{ id: 'MAIN-1' }] });
  await mkdir(join(repo.root, 'ralph/lists'));
  for (const name of names)
    await repo.write(
      `ralph/lists/${name}.json`,
      JSON.stringify({
        project: name,
        stories: Array.from({ length: stories }, (_, index) => ({
          id: `${name.toUpperCase()}-${index + 1}`,
          title: `Story ${index + 1} of ${name}`,
          priority: index + 1,
          passes: false,
        })),
        ...extra[name],
      }),
    );
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(repo.root, path)), { recursive: true });
    await repo.write(path, text);
  }
  await repo.write('.gitignore', 'ralph/worktrees/\nralph/logs/\n');
  repo.git('add', '-A');
  repo.git('commit', '-q', '-m', 'task lists');
  return repo;
}

/** ralph/logs/parallel-last-run.json of the main checkout. */
export const parallelRecord = (repo: Repo) =>
  JSON.parse(repo.read('ralph/logs/parallel-last-run.json')) as {
    exitCode: number;
    loops: { list: string; outcome: { state: string; reason?: string; exitCode?: number }; stoppedBy?: string }[];
    matrix: { ours: string; theirs: string; check: { state: string; files?: string[] } }[];
  };
