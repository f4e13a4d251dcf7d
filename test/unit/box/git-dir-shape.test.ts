import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordNested } from '../../../src/box/nested-repos.js';
import { sweepNested } from '../../../src/box/nested-sweep.js';
import { nestedSweepLines } from '../../../src/box/swept-lines.js';
import { realRepository } from '../git/real-repository.js';

async function committedRepo() {
  const repo = await realRepository('ralph-shape-');
  const root = await realpath(repo.root);
  repo.git('commit', '-q', '--allow-empty', '-m', 'first');
  const gitDir = join(root, '.git');
  const places = { workTree: root, gitDir, commonDir: gitDir, recordDir: join(gitDir, 'ralph') };
  return { ...repo, root, gitDir, places };
}

/** A plain git status, as you run it after the run, bounded so that a hang fails instead of waiting. */
function plainStatus(root: string): string {
  return execFileSync('git', ['status', '--porcelain'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
}

describe("the git dir's shape, put back after each command", () => {
  it('a HEAD of garbage and a bare repository at the root: HEAD moved aside and put back, your git finds .git', async () => {
    const repo = await committedRepo();
    const record = await recordNested(repo.root, repo.gitDir);
    // The red team's F1: .git passed by, the root a bare repository whose config runs a program of the agent's.
    const proof = join(repo.root, '.proof');
    const program = join(repo.root, '.planted.sh');
    await writeFile(program, `#!/bin/sh\ntouch "${proof}"\ncat\n`);
    await chmod(program, 0o755);
    await writeFile(join(repo.root, '.gitattributes'), '* filter=planted\n');
    await writeFile(join(repo.root, 'file.txt'), 'one\n');
    await writeFile(join(repo.gitDir, 'HEAD'), 'garbage\n');
    await writeFile(join(repo.root, 'HEAD'), 'ref: refs/heads/main\n');
    for (const name of ['objects', 'refs']) await symlink(join(repo.gitDir, name), join(repo.root, name));
    await writeFile(
      join(repo.root, 'config'),
      `[core]\n\tbare = false\n\tworktree = .\n[filter "planted"]\n\tclean = ${program}\n`,
    );

    const sweep = await sweepNested(record, repo.places);

    expect(sweep.moved).toEqual([
      expect.objectContaining({ from: join(repo.gitDir, 'HEAD'), what: 'a HEAD git cannot read', shape: true }),
    ]);
    expect(await readFile(join(repo.gitDir, 'HEAD'), 'utf8')).toBe('ref: refs/heads/main\n');
    expect(await readFile(sweep.moved[0]!.to, 'utf8')).toBe('garbage\n');
    expect(nestedSweepLines(sweep)[0]).toMatch(/put back what was there as the box was made: git would have passed/);
    plainStatus(repo.root);
    expect(existsSync(proof)).toBe(false);
  });

  it('makes again the refs folder the agent removed, and moves aside what it put in its place', async () => {
    const repo = await committedRepo();
    repo.git('pack-refs', '--all');
    const record = await recordNested(repo.root, repo.gitDir);
    await rm(join(repo.gitDir, 'refs'), { recursive: true });
    const first = await sweepNested(record, repo.places);
    expect(first.mended).toEqual([join(repo.gitDir, 'refs')]);
    expect(nestedSweepLines(first)).toEqual([
      expect.stringMatching(/^the box put back .*refs, which the agent removed/),
    ]);
    expect(plainStatus(repo.root)).toBe('');

    await rm(join(repo.gitDir, 'refs'), { recursive: true });
    await writeFile(join(repo.gitDir, 'refs'), 'a file\n');
    const second = await sweepNested(record, repo.places);
    expect(second.moved).toEqual([expect.objectContaining({ from: join(repo.gitDir, 'refs'), shape: true })]);
    expect(lstatSync(join(repo.gitDir, 'refs')).isDirectory()).toBe(true);
    expect(repo.git('rev-parse', '--abbrev-ref', 'HEAD')).toBe('main');
  });

  it('leaves a HEAD git reads: another branch, a detached commit, a link into refs', async () => {
    const repo = await committedRepo();
    const record = await recordNested(repo.root, repo.gitDir);
    repo.git('switch', '-q', '-c', 'other');
    expect(await sweepNested(record, repo.places)).toEqual({ moved: [], mended: [], unfinished: [] });
    repo.git('switch', '-q', '--detach');
    expect(await sweepNested(record, repo.places)).toEqual({ moved: [], mended: [], unfinished: [] });
    await rm(join(repo.gitDir, 'HEAD'));
    await symlink('refs/heads/main', join(repo.gitDir, 'HEAD'));
    expect(await sweepNested(record, repo.places)).toEqual({ moved: [], mended: [], unfinished: [] });
  });
});

describe('a FIFO where git opens a file of its own in the work tree', () => {
  it('sub/.gitignore and the root .gitattributes go aside; your git status then answers', async () => {
    const repo = await committedRepo();
    await mkdir(join(repo.root, 'sub'));
    await writeFile(join(repo.root, 'sub/file.txt'), 'one\n');
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'sub');
    const record = await recordNested(repo.root, repo.gitDir);
    // The red team's F3: git opens each .gitignore of the folders it scans, without O_NONBLOCK.
    execFileSync('mkfifo', [join(repo.root, 'sub/.gitignore'), join(repo.root, '.gitattributes')]);

    const sweep = await sweepNested(record, repo.places);

    expect(sweep.moved.map((moved) => [moved.from, moved.what]).sort()).toEqual([
      [join(repo.root, '.gitattributes'), 'a FIFO'],
      [join(repo.root, 'sub/.gitignore'), 'a FIFO'],
    ]);
    expect(plainStatus(repo.root)).toBe('');
  });
});
