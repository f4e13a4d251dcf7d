import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { looseCommitParents, reachesThroughLooseCommits } from '../../../src/git/loose-commits.js';
import { realRepository } from './real-repository.js';

/** A real repository, and git in it. */
async function repository(objectFormat: 'sha1' | 'sha256' = 'sha1') {
  const { root, git } = await realRepository('ralph-loose-', [`--object-format=${objectFormat}`]);
  const commit = (message: string) => {
    git('commit', '-q', '--allow-empty', '-m', message);
    return git('rev-parse', 'HEAD');
  };
  return { root, git, commit, dirs: { gitDir: join(root, '.git'), commonDir: join(root, '.git') } };
}

describe('reading commits from their loose object files', () => {
  it('finds the parents of a commit, none for the first', async () => {
    const { commit, dirs } = await repository();
    const first = commit('one');
    const second = commit('two');
    expect(await looseCommitParents(dirs, first)).toEqual([]);
    expect(await looseCommitParents(dirs, second)).toEqual([first]);
  });

  it('reaches the accepted commit through a few new ones, and both parents of a merge', async () => {
    const { git, commit, dirs } = await repository();
    const accepted = commit('accepted');
    git('checkout', '-q', '-b', 'side');
    const side = commit('side');
    git('checkout', '-q', 'main');
    commit('main work');
    git('merge', '-q', '--no-ff', '-m', 'merge', 'side');
    const head = commit('after the merge');
    expect(await reachesThroughLooseCommits(dirs, accepted, head)).toBe(true);
    expect(await reachesThroughLooseCommits(dirs, side, head)).toBe(true);
  });

  it('settles nothing it cannot see: an unrelated commit, a packed one, a missing one', async () => {
    const { git, commit, dirs } = await repository();
    const old = commit('old');
    git('checkout', '-q', '--orphan', 'other');
    const unrelated = commit('unrelated');
    git('checkout', '-q', 'main');
    const head = commit('head');
    expect(await reachesThroughLooseCommits(dirs, unrelated, head)).toBeUndefined();
    git('gc', '-q', '--prune=now');
    expect(await looseCommitParents(dirs, head)).toBeUndefined();
    expect(await reachesThroughLooseCommits(dirs, old, head)).toBeUndefined();
    expect(await looseCommitParents(dirs, 'f'.repeat(40))).toBeUndefined();
    expect(await looseCommitParents(dirs, 'not a hash')).toBeUndefined();
  });

  it('trusts no file that does not hash to its name, as git would not', async () => {
    const { commit, dirs } = await repository();
    const real = commit('real');
    const forged = 'ab'.padEnd(40, '0');
    const body = `tree ${'4b825dc642cb6eb9a060e54bf8d69288fbee4904'}\nparent ${real}\n\nforged\n`;
    const object = Buffer.concat([Buffer.from(`commit ${Buffer.byteLength(body)}\0`), Buffer.from(body)]);
    await mkdir(join(dirs.commonDir, 'objects', 'ab'), { recursive: true });
    await writeFile(join(dirs.commonDir, 'objects', 'ab', forged.slice(2)), deflateSync(object));
    expect(await looseCommitParents(dirs, forged)).toBeUndefined();
    expect(await reachesThroughLooseCommits(dirs, real, forged)).toBeUndefined();
  });

  it('reads a SHA-256 repository too', async () => {
    const { commit, dirs } = await repository('sha256');
    const first = commit('one');
    const second = commit('two');
    expect(second).toHaveLength(64);
    expect(await looseCommitParents(dirs, second)).toEqual([first]);
  });

  it('reads no planted giant: a zlib bomb, a link to a huge file, an object over 1 MiB', async () => {
    const { commit, dirs } = await repository();
    const base = commit('base');
    const objectPath = (hash: string) => join(dirs.commonDir, 'objects', hash.slice(0, 2), hash.slice(2));
    // A commit whose parent's object file is a bomb: 1 GiB of zeros, deflated to about 1 MiB.
    const bombed = 'cd'.padEnd(40, '1');
    await mkdir(dirname(objectPath(bombed)), { recursive: true });
    await writeFile(objectPath(bombed), deflateSync(Buffer.alloc(64 * 1024 * 1024)));
    const before = process.memoryUsage().rss;
    expect(await looseCommitParents(dirs, bombed)).toBeUndefined();
    expect(process.memoryUsage().rss - before).toBeLessThan(32 * 1024 * 1024);
    // A link in an object's place, to a file far bigger than any commit.
    const big = join(dirs.commonDir, 'big');
    await writeFile(big, Buffer.alloc(2 * 1024 * 1024));
    const linked = 'ef'.padEnd(40, '2');
    await mkdir(dirname(objectPath(linked)), { recursive: true });
    await symlink(big, objectPath(linked));
    expect(await looseCommitParents(dirs, linked)).toBeUndefined();
    // Grafts give git other parents than the files hold: the files settle nothing then.
    const head = commit('head');
    expect(await reachesThroughLooseCommits(dirs, base, head)).toBe(true);
    await mkdir(join(dirs.commonDir, 'info'), { recursive: true });
    await writeFile(join(dirs.commonDir, 'info/grafts'), `${head}\n`);
    expect(await reachesThroughLooseCommits(dirs, base, head)).toBeUndefined();
  });
});
