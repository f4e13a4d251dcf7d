import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { absentRedirects, sweepRedirects } from '../../../src/box/git-redirects.js';

describe("git's redirects", () => {
  it('records the absent ones of a main checkout, and takes away only what appeared since', async () => {
    const git = join(await mkdtemp(join(tmpdir(), 'ralph-redirects-')), '.git');
    await mkdir(git);
    const absent = await absentRedirects(git, git);
    expect(absent).toEqual([join(git, 'commondir'), join(git, 'config.worktree')]);
    expect(await sweepRedirects(absent)).toEqual([]);
    await writeFile(join(git, 'commondir'), '../elsewhere\n');
    await mkdir(join(git, 'config.worktree'));
    expect((await sweepRedirects(absent)).sort()).toEqual(absent);
    expect(absent.some((path) => existsSync(path))).toBe(false);
  });

  it("leaves a linked worktree's own commondir alone: it exists, and the box holds it read-only", async () => {
    const common = join(await mkdtemp(join(tmpdir(), 'ralph-redirects-')), '.git');
    const own = join(common, 'worktrees', 'a');
    await mkdir(own, { recursive: true });
    await writeFile(join(own, 'commondir'), '../..\n');
    await writeFile(join(common, 'config.worktree'), '');
    expect(await absentRedirects(own, common)).toEqual([join(own, 'config.worktree')]);
  });
});
