import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RalphError } from '../../../src/errors.js';
import { boundedGit, gitFailure, gitOutput, stoppedByInterrupt } from '../../../src/git/bounded-git.js';
import { switchToBranch } from '../../../src/git/branch.js';

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
    const failure = await boundedGit(outside)
      .raw(['rev-parse', 'HEAD'])
      .then(
        () => undefined,
        (error: unknown) => gitFailure(error, ['rev-parse']),
      );
    expect(failure?.message).toMatch(/^git rev-parse failed: fatal: not a git repository/);
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
