import { writeFileSync } from 'node:fs';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitMergePorts } from '../../../src/parallel/merge-ports.js';
import { realRepository } from '../git/real-repository.js';

/** A repository with main and two loop branches, each one commit on main. */
async function loops() {
  const { root, git } = await realRepository('ralph-merge-ports-');
  const commit = (file: string, text: string) => {
    writeFileSync(join(root, file), text);
    git('add', '-A');
    git('commit', '-q', '-m', file);
    return git('rev-parse', 'HEAD');
  };
  const base = commit('README.md', 'base\n');
  git('switch', '-q', '-c', 'ralph/x');
  const x = commit('x.txt', 'x\n');
  git('switch', '-q', '-c', 'ralph/y', 'main');
  const y = commit('y.txt', 'y\n');
  git('switch', '-q', 'main');
  return { root, git, base, x, y };
}

describe('the merge check reads the branches as branches', () => {
  it('a tag or a file under .git named like a loop branch is not the branch', async () => {
    const { root, git, base, x } = await loops();
    git('tag', 'ralph/x', base);
    await writeFile(join(root, '.git/ralph/x'), `${base}\n`).catch(() => undefined);
    const commits = await gitMergePorts(root).resolve!(['main', 'ralph/x']);
    expect(commits.get('ralph/x')).toBe(x);
    expect(commits.get('main')).toBe(base);
  });

  it("one branch git cannot read does not blind the others' check", async () => {
    const { root, base, x, y } = await loops();
    // The agent leaves ralph/x's tip object corrupt: the one batch fails for every name.
    const object = join(root, '.git/objects', x.slice(0, 2), x.slice(2));
    await chmod(object, 0o644);
    await writeFile(object, 'not an object');
    const commits = await gitMergePorts(root).resolve!(['main', 'ralph/x', 'ralph/y']);
    expect(commits.get('main')).toBe(base);
    expect(commits.get('ralph/y')).toBe(y);
  });
});
