import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runRalph, type Repo } from '../helpers/e2e.js';
import { repoWithLists } from '../helpers/parallel-repo.js';

// Integration decides from ralph's own records (under .git, out of the agent's reach), never from
// what a process sharing .git can write: trailers, another loop's commits.

/** A branch with one commit on HEAD adding `files`, with this message: what an agent can make through .git. */
async function plantBranch(repo: Repo, branch: string, files: Record<string, string>, message: string[]) {
  repo.git('switch', '-q', '-c', branch);
  for (const [path, text] of Object.entries(files)) await repo.write(path, text);
  repo.git('add', '-A');
  repo.git('commit', '-q', ...message.flatMap((paragraph) => ['-m', paragraph]));
  repo.git('switch', '-q', '-');
  return repo.git('rev-parse', branch);
}

/** The gate kills ralph (its nearest node ancestor) the first time it runs, then passes. */
const killOnce = (mark: string) => ({
  name: 'killer',
  command: `if [ ! -f ${mark} ]; then touch ${mark}; p=$PPID; while [ "$(cat /proc/$p/comm)" != node ]; do p=$(awk '{print $4}' /proc/$p/stat); done; kill -9 $p; exit 1; fi`,
});

describe('ralph integrate from its own records', () => {
  it('does not start a dependent list from a base whose only claim is a forged trailer', async () => {
    const repo = await repoWithLists(['base', 'next'], 1, { next: { dependsOn: ['base'] } });
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const forged = await plantBranch(repo, 'ralph/integration/for-next', { 'evil.txt': 'evil\n' }, [
      'ralph: integration branch ralph/integration/for-next',
      'Ralph-Integration: start',
    ]);
    const result = await runRalph(repo, ['run', '--parallel', '--max-iterations', '3'], { timeoutMs: 90_000 });
    expect(result.code).toBe(64);
    expect(result.stdout + result.stderr).toContain(
      'branch ralph/integration/for-next is not one ralph integrate made: ralph has no record of making its commit',
    );
    expect(repo.git('rev-parse', 'ralph/integration/for-next')).toBe(forged);
    expect(existsSync(join(repo.root, 'ralph/worktrees/ralph-next'))).toBe(false);
  }, 120_000);

  it("names and leaves out a commit another process put on a loop's branch, merging the others (exit 2)", async () => {
    const repo = await repoWithLists(['api', 'web']);
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const run = await runRalph(repo, ['run', '--parallel', '--max-iterations', '3'], { timeoutMs: 90_000 });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    // Another loop's agent, through the shared .git: a commit into web's worktree after its loop ended.
    const web = join(repo.root, 'ralph/worktrees/ralph-web');
    repo.git('-C', web, 'commit', '-q', '--allow-empty', '-m', 'planted by a sibling');
    const planted = repo.git('rev-parse', 'ralph/web').slice(0, 7);
    const result = await runRalph(repo, ['integrate', '--into', 'ralph/integration/test']);
    expect(result.code).toBe(2);
    expect(result.stdout).toMatch(/✓ api {2}ralph\/api merged/);
    expect(result.stdout).toContain(
      `✗ web  ralph/web left out: 1 commit its loop never made (${planted} "planted by a sibling")`,
    );
    expect(() => repo.git('merge-base', '--is-ancestor', 'ralph/web', 'ralph/integration/test')).toThrow();
  }, 120_000);

  it('leaves the branch where it was when a gate kills ralph, and gates the merge again next time', async () => {
    const repo = await repoWithLists(['api']);
    await repo.write('ralph/config.json', JSON.stringify({ gates: [killOnce(join(repo.root, '.git/killed'))] }));
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'a gate that kills ralph once');
    const done = JSON.stringify({ project: 'api', stories: [{ id: 'API-1', title: 'one', passes: true }] });
    await plantBranch(repo, 'ralph/api', { 'ralph/tasks.json': done, 'api.txt': 'api\n' }, ['api done']);
    const killed = await runRalph(repo, ['integrate', '--into', 'ralph/integration/test']);
    expect(killed.code).toBe(null);
    expect(killed.stdout).toContain('▸ api: gates on the merge of ralph/api');
    // Only the start: the merge the gate was checking never reached the branch.
    expect(repo.git('rev-list', '--count', 'HEAD..ralph/integration/test')).toBe('1');
    const again = await runRalph(repo, ['integrate', '--into', 'ralph/integration/test']);
    expect(again.code, again.stdout + again.stderr).toBe(0);
    expect(again.stdout).toContain('▸ api: gates on the merge of ralph/api');
    expect(again.stdout).toMatch(/✓ api {2}ralph\/api merged/);
    expect(repo.git('show', 'ralph/integration/test:api.txt')).toBe('api');
  });
});
