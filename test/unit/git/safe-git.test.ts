import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RalphError } from '../../../src/errors.js';
import { NEUTRAL_CONFIG, neutralGitEnv } from '../../../src/git/neutral-config.js';
import {
  GitStopped,
  gitFailure,
  gitOutput,
  gitRefusal,
  runGit,
  stoppedByInterrupt,
} from '../../../src/git/safe-git.js';
import { switchToBranch } from '../../../src/git/branch.js';
import { uncommittedChanges } from '../../../src/git/work-tree.js';
import { isAlive, waitFor } from '../../helpers/e2e.js';
import { realRepository } from './real-repository.js';

describe('a git command the interrupt stops', () => {
  it('fails as a set-up error that says so, and is known as stopped by the interrupt', async () => {
    const interrupt = new AbortController();
    interrupt.abort();
    const failure = await gitOutput(tmpdir(), ['status'], interrupt.signal).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RalphError);
    expect(failure).toMatchObject({ kind: 'setup', message: 'git status failed: stopped by the interrupt' });
    expect(stoppedByInterrupt(failure)).toBe(true);
  });

  it('a git that refuses on its own is no interrupt, even while one is pending elsewhere', async () => {
    const outside = await mkdtemp(join(tmpdir(), 'ralph-not-a-repo-'));
    const result = await runGit(outside, ['rev-parse', 'HEAD']);
    const failure = gitFailure(result, ['rev-parse']);
    expect(failure.message).toMatch(/^git rev-parse failed: fatal: not a git repository/);
    expect(stoppedByInterrupt(failure)).toBe(false);
    expect(stoppedByInterrupt(new TypeError('a bug'))).toBe(false);
  });
});

describe('switchToBranch when git fails', () => {
  it('a failing `git branch --list` is a one-line set-up error, not a bug', async () => {
    // check-ref-format needs no repository; listing branches does.
    const outside = await mkdtemp(join(tmpdir(), 'ralph-not-a-repo-'));
    const failure = await switchToBranch(outside, 'ralph/feature', 'ralph/tasks.json').catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RalphError);
    expect(failure).toMatchObject({
      kind: 'setup',
      message: expect.stringMatching(/^git branch failed: fatal: not a git repository/),
    });
  });
});

/** A repository whose .git/config sets every executable key to a program that leaves a proof file. */
async function plantedRepository() {
  const repo = await realRepository('ralph-safe-git-');
  const proof = (name: string) => join(repo.root, `.proof-${name}`);
  const program = join(repo.root, '.planted.sh');
  await writeFile(program, `#!/bin/sh\ntouch "${repo.root}/.proof-$1"\ncat\n`);
  await chmod(program, 0o755);
  await writeFile(join(repo.root, '.gitattributes'), '* filter=planted\n');
  await writeFile(join(repo.root, 'file.txt'), 'one\n');
  repo.git('add', '-A');
  repo.git('commit', '-q', '-m', 'initial');
  repo.git('config', 'core.fsmonitor', `${program} fsmonitor`);
  repo.git('config', 'filter.planted.clean', `${program} clean`);
  repo.git('config', 'filter.planted.smudge', `${program} smudge`);
  repo.git('config', 'filter.planted.required', 'true');
  repo.git('config', 'log.showSignature', 'true');
  for (const hook of ['post-checkout', 'reference-transaction', 'post-index-change']) {
    await writeFile(join(repo.root, '.git/hooks', hook), `#!/bin/sh\ntouch "${repo.root}/.proof-${hook}"\n`);
    await chmod(join(repo.root, '.git/hooks', hook), 0o755);
  }
  return { ...repo, proof };
}

describe("ralph's git with the repository's executable configuration", () => {
  it('reads every neutral setting back from a real git, over what .git/config says', async () => {
    const repo = await plantedRepository();
    for (const [key, value] of NEUTRAL_CONFIG) {
      const read = execFileSync('git', ['config', '--get', key], {
        cwd: repo.root,
        env: neutralGitEnv(process.env),
        encoding: 'utf8',
      }).replace(/\n$/, '');
      expect([key, read]).toEqual([key, value]);
    }
  });

  it('a plain git would run the planted programs: the test plants them for real', async () => {
    const repo = await plantedRepository();
    await writeFile(join(repo.root, 'file.txt'), 'two\n');
    repo.git('status', '--porcelain');
    expect(existsSync(repo.proof('fsmonitor'))).toBe(true);
    expect(existsSync(repo.proof('clean'))).toBe(true);
  });

  it('status and switch run none of them: no fsmonitor, filter or hook', async () => {
    const repo = await plantedRepository();
    await writeFile(join(repo.root, 'file.txt'), 'two\n');
    expect(Object.keys(await uncommittedChanges(repo.root))).toEqual(expect.arrayContaining(['file.txt']));
    await writeFile(join(repo.root, 'file.txt'), 'one\n');
    await switchToBranch(repo.root, 'feature', 'tasks.json');
    await runGit(repo.root, ['reflog', 'show', '--format=%H', '-n5', 'HEAD']);
    expect(repo.git('branch', '--show-current')).toBe('feature');
    for (const name of ['fsmonitor', 'clean', 'smudge', 'post-checkout', 'reference-transaction', 'post-index-change'])
      expect([name, existsSync(repo.proof(name))]).toEqual([name, false]);
  });

  it('takes no bare repository the agent made of the work tree, once .git is unreadable to git', async () => {
    // The red team's way round the config check: a HEAD of garbage makes git pass .git by, and a
    // HEAD, objects and refs at the work tree's root are a bare repository with a config of the agent's.
    const repo = await realRepository('ralph-safe-git-');
    repo.git('commit', '-q', '--allow-empty', '-m', 'one');
    const program = join(repo.root, '.planted.sh');
    await writeFile(program, `#!/bin/sh\ntouch "${repo.root}/.proof-clean"\ncat\n`);
    await chmod(program, 0o755);
    await writeFile(join(repo.root, '.gitattributes'), '* filter=planted\n');
    await writeFile(join(repo.root, 'file.txt'), 'one\n');
    await writeFile(join(repo.root, '.git/HEAD'), 'garbage\n');
    await writeFile(join(repo.root, 'HEAD'), 'ref: refs/heads/main\n');
    for (const name of ['objects', 'refs'])
      execFileSync('ln', ['-s', join(repo.root, '.git', name), join(repo.root, name)]);
    await writeFile(
      join(repo.root, 'config'),
      `[core]\n\tbare = false\n\tworktree = .\n[filter "planted"]\n\tclean = ${program}\n\trequired = true\n`,
    );
    const failure = await uncommittedChanges(repo.root).catch((error: unknown) => error);
    expect(String(failure)).toMatch(/bare repository|not a git repository/);
    expect(existsSync(join(repo.root, '.proof-clean'))).toBe(false);
  });

  it('a git that never answers is ended with everything its group started', async () => {
    const repo = await realRepository('ralph-safe-git-');
    const pidFile = join(repo.root, '.sleeper');
    // An alias is configuration ralph never reads; here it stands for any hook that hangs.
    repo.git('config', 'alias.hang', `!sleep 600 & echo $! > ${pidFile}; wait`);
    const failure = await runGit(repo.root, ['hang'], { timeoutMs: 500 }).catch((error: unknown) => error);
    expect(gitFailure(failure, ['hang']).message).toMatch(/^git hang failed: no answer within/);
    await waitFor(() => existsSync(pidFile));
    const sleeper = Number(execFileSync('cat', [pidFile], { encoding: 'utf8' }));
    await waitFor(() => !isAlive(sleeper));
  });

  it('a git held by a FIFO the agent put in .git/ is stopped, and the fix names FIFOs there', async () => {
    const repo = await realRepository('ralph-safe-git-');
    repo.git('commit', '-q', '--allow-empty', '-m', 'one');
    execFileSync('mkfifo', [join(repo.root, '.git/objects/info/alternates')]);
    const failure = await runGit(repo.root, ['cat-file', '-p', 'HEAD'], { timeoutMs: 500 }).catch(
      (error: unknown) => error,
    );
    expect(gitFailure(failure, ['cat-file'])).toMatchObject({
      message: expect.stringMatching(/^git cat-file failed: no answer within/),
      hint: expect.stringContaining('a FIFO the agent put in .git/: `find .git -type p`'),
    });
  });

  it('a git that prints without end is stopped at the cap and fails, never answering with part of it', async () => {
    const repo = await realRepository('ralph-safe-git-');
    repo.git('config', 'alias.flood', '!exec yes');
    const failure = await runGit(repo.root, ['flood'], { timeoutMs: 30_000 }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GitStopped);
    const refusal = gitFailure(failure, ['flood']);
    expect(refusal.message).toBe('git flood failed: it printed more than 64 MiB, so it was stopped');
    expect(refusal.hint).toMatch(/^look for what made it so large/);
  });

  it('input reaches git, and its answer comes without the final newline', async () => {
    const repo = await realRepository('ralph-safe-git-');
    repo.git('commit', '-q', '--allow-empty', '-m', 'initial');
    const head = repo.git('rev-parse', 'HEAD');
    const size = repo.git('cat-file', '-s', head);
    const result = await runGit(repo.root, ['cat-file', '--batch-check'], { input: `${head}\nno-such-object\n` });
    expect(result).toMatchObject({ exitCode: 0, stdout: `${head} commit ${size}\nno-such-object missing` });
  });
});

describe('gitRefusal', () => {
  it("is git's error line, with the files it lists below it, a few named", () => {
    const stderr =
      'error: Your local changes to the following files would be overwritten by checkout:\n\ta.txt\n\tb.txt\nPlease commit your changes or stash them before you switch branches.\nAborting\n';
    expect(gitRefusal(stderr)).toBe(
      'Your local changes to the following files would be overwritten by checkout: a.txt, b.txt',
    );
    const many = `error: untracked files in the way:\n${['1', '2', '3', '4', '5', '6', '7'].map((n) => `\t${n}.txt`).join('\n')}\n`;
    expect(gitRefusal(many)).toBe('untracked files in the way: 1.txt, 2.txt, 3.txt, 4.txt, 5.txt and 2 more');
  });

  it('is its fatal line, else its first line that says something, else a plain refusal', () => {
    expect(gitRefusal("hint: one\nfatal: 'x' is already checked out at '/w'\n")).toBe(
      "'x' is already checked out at '/w'",
    );
    expect(gitRefusal('\n  something went wrong\n')).toBe('something went wrong');
    expect(gitRefusal('')).toBe('git refused');
  });
});
