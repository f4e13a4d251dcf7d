import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RalphError } from '../../../src/errors.js';
import { recordLoopHead } from '../../../src/files/loop-heads.js';
import { recordDir } from '../../../src/git/record-dir.js';
import { baseFor } from '../../../src/integrate/base-for.js';
import type { ListRef } from '../../../src/integrate/integration-order.js';
import { gateEnvironment } from '../../../src/run-lifecycle/agent-environment.js';
import { realRepository } from '../git/real-repository.js';

const list = (name: string, dependsOn: string[] = []): ListRef => ({ name, branch: `ralph/${name}`, dependsOn });

/** A repository on `main`, and a loop's branch with a file and its list in the state given. */
async function project() {
  const repo = await realRepository('ralph-base-for-');
  const { root, git } = repo;
  await writeFile(join(root, 'README.md'), 'project\n');
  await writeFile(join(root, '.gitignore'), 'ralph/worktrees/\nralph/logs/\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  /** The branch's tip recorded as its loop's head, carried on from `before` (the head recorded before). */
  const recordHead = async (name: string, before: string | null = null) =>
    recordLoopHead(await recordDir(root), {
      branch: `ralph/${name}`,
      from: before,
      to: git('rev-parse', `ralph/${name}`),
    });
  const loopBranch = async (name: string, passes = true, from = 'main', recorded = true) => {
    git('switch', '-q', '-c', `ralph/${name}`, from);
    await mkdir(join(root, 'ralph'), { recursive: true });
    await writeFile(join(root, 'ralph/tasks.json'), JSON.stringify({ stories: [{ id: 'S', title: 's', passes }] }));
    await writeFile(join(root, `${name}.txt`), `${name}\n`);
    git('add', '-A');
    git('commit', '-q', '-m', `${name} work`);
    git('switch', '-q', 'main');
    if (recorded) await recordHead(name);
  };
  return { ...repo, loopBranch, recordHead };
}

describe('baseFor', () => {
  it("refuses a dependency's branch that no loop of this repository recorded: the supervisor ran them all", async () => {
    const { root, loopBranch } = await project();
    await loopBranch('api', true, 'main', false);
    const lists = [list('api'), list('ui', ['api'])];
    const refused = await baseFor(root, lists[1]!, lists, { env: gateEnvironment(process.env) }).catch(
      (error: unknown) => error,
    );
    expect((refused as RalphError).message).toBe(
      'ui depends on api, whose work is not in its base ralph/integration/for-ui: api  ralph/api left out: no loop of this repository recorded the commits of ralph/api',
    );
  });

  it("starts a dependent list from an integration branch that holds every dependency's work, through others too", async () => {
    const { root, git, loopBranch, recordHead } = await project();
    await loopBranch('api');
    await loopBranch('db');
    await loopBranch('ui', true, 'ralph/api');
    const lists = [list('api'), list('db'), list('docs', ['ui']), list('ui', ['api', 'db'])];
    const lines: string[] = [];
    const base = await baseFor(root, lists[2]!, lists, {
      env: gateEnvironment(process.env),
      onLine: (line) => lines.push(line),
    });
    expect(base).toBe('ralph/integration/for-docs');
    const files = git('ls-tree', '--name-only', base).split('\n');
    expect(files).toEqual(expect.arrayContaining(['api.txt', 'db.txt', 'ui.txt', 'README.md']));
    expect(lines).toHaveLength(3);
    // A later call brings the same base up to date with the dependencies' new work.
    git('switch', '-q', 'ralph/db');
    await writeFile(join(root, 'db-more.txt'), 'more\n');
    git('add', '-A');
    const dbBefore = git('rev-parse', 'HEAD');
    git('commit', '-q', '-m', 'more db work');
    git('switch', '-q', 'main');
    await recordHead('db', dbBefore);
    expect(await baseFor(root, lists[2]!, lists, { env: gateEnvironment(process.env) })).toBe(base);
    expect(git('ls-tree', '--name-only', base).split('\n')).toContain('db-more.txt');
  });

  it('starts a list without dependencies from HEAD', async () => {
    const { root, git } = await project();
    expect(await baseFor(root, list('api'), [list('api')], { env: gateEnvironment(process.env) })).toBe(
      git('rev-parse', 'HEAD'),
    );
  });

  it('refuses a base without a dependency whose work is not done, naming it', async () => {
    const { root, loopBranch } = await project();
    await loopBranch('api', false);
    const lists = [list('api'), list('ui', ['api'])];
    const refused = await baseFor(root, lists[1]!, lists, { env: gateEnvironment(process.env) }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(RalphError);
    expect((refused as RalphError).message).toBe(
      'ui depends on api, whose work is not in its base ralph/integration/for-ui: api  ralph/api not merged: 1 of 1 story still open in ralph/tasks.json',
    );
  });
});
