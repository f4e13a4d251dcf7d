import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitlinkPaths, gitlinksIn, safePath } from '../../../src/git/gitlinks.js';
import { runGit } from '../../../src/git/safe-git.js';
import { realRepository } from './real-repository.js';

describe('gitlinks', () => {
  it('reads them from ls-files --stage and ls-tree output, and nothing else', () => {
    const staged = ['100644 aa 0\tREADME', '160000 bb 0\tsub', '160000 cc 0\tdir/with\ttab'].join('\0');
    expect(gitlinksIn(`${staged}\0`)).toEqual(['sub', 'dir/with\ttab']);
    expect(gitlinksIn(['040000 tree dd\tlib', '160000 commit ee\tvendor/x', ''].join('\0'))).toEqual(['vendor/x']);
    expect(gitlinksIn(['100644\tREADME', '160000\tsub', '1600001\tno', ''].join('\0'))).toEqual(['sub']);
    expect(gitlinksIn('')).toEqual([]);
  });

  it('keeps no path that leaves the work tree or names a git dir', () => {
    for (const path of ['../other', 'a/../../b', '/etc', 'a//b', './a', 'a/.git', '.GIT/x', 'a\\..\\b'])
      expect(safePath(path), path).toBe(false);
    for (const path of ['sub', 'a/b/c', '.github', 'x.git', '..a']) expect(safePath(path), path).toBe(true);
  });

  it("finds the index's gitlinks and HEAD's, in a repository without a commit too", async () => {
    const repo = await realRepository('ralph-gitlinks-');
    expect(await gitlinkPaths(repo.root)).toEqual([]);
    const hash = '1'.repeat(40);
    repo.git('update-index', '--add', '--cacheinfo', `160000,${hash},in-index`);
    expect(await gitlinkPaths(repo.root)).toEqual(['in-index']);
    repo.git('commit', '-qm', 'gitlink');
    repo.git('rm', '-q', '--cached', 'in-index');
    // Gone from the index, still in HEAD: a `git reset` puts it back.
    expect(await gitlinkPaths(repo.root)).toEqual(['in-index']);
  });
});

// The claim neutral-config.ts makes: its settings reach the git that ralph's git starts in a submodule.
describe("ralph's own git in a repository with a nested repository's fsmonitor", () => {
  it('never runs it, where a plain git status does', async () => {
    const repo = await realRepository('ralph-gitlinks-');
    repo.git('commit', '-q', '--allow-empty', '-m', 'init');
    const sub = join(repo.root, 'sub');
    await mkdir(sub);
    const inSub = (...args: string[]) => execFileSync('git', ['-C', sub, ...args], { encoding: 'utf8' });
    inSub('init', '-q');
    inSub('-c', 'user.name=t', '-c', 'user.email=t@t.invalid', 'commit', '-q', '--allow-empty', '-m', 's');
    const proof = join(repo.root, '.proof');
    inSub('config', 'core.fsmonitor', `touch ${proof}; false`);
    repo.git('add', 'sub');
    repo.git('commit', '-qm', 'add-sub');

    const status = await runGit(repo.root, ['status', '--porcelain']);
    expect(status.exitCode).toBe(0);
    expect(existsSync(proof)).toBe(false);
    // The same command without ralph's settings runs it: the test above could fail.
    execFileSync('git', ['status', '--porcelain'], { cwd: repo.root });
    expect(existsSync(proof)).toBe(true);
  });
});
