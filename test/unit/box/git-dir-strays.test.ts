import { execFileSync } from 'node:child_process';
import { lstatSync } from 'node:fs';
import { mkdir, readlink, realpath, symlink } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { gitDirStrays } from '../../../src/box/git-dir-strays.js';
import { recordNested } from '../../../src/box/nested-repos.js';
import { sweepNested } from '../../../src/box/nested-sweep.js';
import { nestedSweepLines } from '../../../src/box/swept-lines.js';
import { realRepository } from '../git/real-repository.js';

/**
 * Far longer than any git here takes, so that a git left waiting on a FIFO fails the test instead
 * of hanging it: a bound on a hang, never a measure of speed.
 */
const HANG_BOUND_MS = 60_000;

async function committedRepo() {
  const repo = await realRepository('ralph-strays-');
  const root = await realpath(repo.root);
  repo.git('commit', '-q', '--allow-empty', '-m', 'first');
  return { ...repo, root, gitDir: join(root, '.git') };
}

function mkfifo(path: string) {
  execFileSync('mkfifo', [path]);
}

/** A socket listening at `path`: the file stays until the server closes. */
function listening(path: string): Promise<Server> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail).listen(path, () => done(server));
  });
}

/** git as you run it, plain, waiting no longer than the bound; throws on a failure or a hang. */
function plainGit(root: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: root, encoding: 'utf8', timeout: HANG_BOUND_MS, stdio: 'pipe' }).trim();
}

describe("the sweep of FIFOs and devices in the agent's git dir", () => {
  it('moves a FIFO at alternates and in refs into the records, after which a real git status and for-each-ref answer', async () => {
    const repo = await committedRepo();
    const head = repo.git('rev-parse', 'HEAD');
    const record = await recordNested(repo.root, repo.gitDir);
    // What the agent leaves in the box: each one a git of ralph's, or yours, would open and wait on.
    await mkdir(join(repo.gitDir, 'refs/heads/deep/er'), { recursive: true });
    const fifos = ['objects/info/alternates', 'refs/heads/deep/er/stuck', 'logs/HEAD'].map((path) =>
      join(repo.gitDir, path),
    );
    execFileSync('rm', [join(repo.gitDir, 'logs/HEAD')]);
    for (const fifo of fifos) mkfifo(fifo);
    await symlink('/dev/zero', join(repo.gitDir, 'ORIG_HEAD'));
    await symlink('..', join(repo.gitDir, 'refs/heads/loop'));

    const records = join(repo.gitDir, 'ralph');
    const places = { workTree: repo.root, gitDir: repo.gitDir, commonDir: repo.gitDir, recordDir: records };
    const { moved, unfinished } = await sweepNested(record, places);

    expect(unfinished).toEqual([]);
    const found = Object.fromEntries(moved.map(({ from, what }) => [from, what]));
    expect(found).toEqual({
      ...Object.fromEntries(fifos.map((fifo) => [fifo, 'a FIFO'])),
      [join(repo.gitDir, 'ORIG_HEAD')]: 'a link to a device',
      [join(repo.gitDir, 'refs/heads/loop')]: 'a link to a folder',
    });
    for (const { from, to } of moved) {
      expect(lstatSync(from, { throwIfNoEntry: false }), from).toBeUndefined();
      expect(to.startsWith(join(records, 'set-aside', 'at-')), to).toBe(true);
    }
    // Moved whole, never removed: the FIFO is a FIFO in the records, the link the same link.
    const aside = (path: string) => moved.find((entry) => entry.from === join(repo.gitDir, path))?.to ?? '';
    expect(lstatSync(aside('objects/info/alternates')).isFIFO()).toBe(true);
    expect(await readlink(aside('ORIG_HEAD'))).toBe('/dev/zero');

    expect(plainGit(repo.root, 'rev-parse', 'HEAD')).toBe(head);
    expect(plainGit(repo.root, 'status', '--porcelain')).toBe('');
    expect(plainGit(repo.root, 'for-each-ref', '--format=%(refname)')).toBe('refs/heads/main');
    expect(await sweepNested(record, places)).toEqual({ moved: [], mended: [], unfinished: [] });
  });

  it("leaves what git writes, your links and sockets as they were, and ralph's records; not the agent's", async () => {
    const repo = await committedRepo();
    repo.git('config', 'core.preferSymlinkRefs', 'true');
    repo.git('symbolic-ref', 'HEAD', 'refs/heads/main');
    repo.git('pack-refs', '--all');
    repo.git('branch', 'second');
    for (const folder of ['elsewhere', 'agents']) await mkdir(join(repo.gitDir, folder));
    await symlink(join(repo.gitDir, 'elsewhere'), join(repo.gitDir, 'objects/linked'));
    await symlink(join(repo.gitDir, 'elsewhere'), join(repo.gitDir, 'objects/relinked'));
    // The records and the hooks are read-only in the box: nothing there is the agent's.
    await mkdir(join(repo.gitDir, 'ralph'));
    mkfifo(join(repo.gitDir, 'ralph/yours'));
    mkfifo(join(repo.gitDir, 'hooks/yours'));
    // A socket of yours (git-annex keeps its ssh connections' in the git dir).
    const yours = await listening(join(repo.gitDir, 'yours.sock'));
    const asMade = gitDirStrays([repo.gitDir], new Map());
    // In the box: one of your links pointed elsewhere, a link to a folder of the agent's own, a socket.
    execFileSync('ln', ['-sfn', join(repo.gitDir, 'agents'), join(repo.gitDir, 'objects/relinked')]);
    await symlink(join(repo.gitDir, 'agents'), join(repo.gitDir, 'objects/info/new'));
    const agents = await listening(join(repo.gitDir, 'refs/agents.sock'));

    const walk = gitDirStrays([repo.gitDir], asMade.kept);
    await Promise.all([yours, agents].map((server) => new Promise((done) => server.close(done))));

    expect(walk.unfinished).toEqual([]);
    expect(walk.strays.sort((a, b) => (a.path < b.path ? -1 : 1))).toEqual([
      { path: join(repo.gitDir, 'objects/info/new'), what: 'a link to a folder' },
      { path: join(repo.gitDir, 'objects/relinked'), what: 'a link to a folder' },
      { path: join(repo.gitDir, 'refs/agents.sock'), what: 'a socket' },
    ]);
    expect(lstatSync(join(repo.gitDir, 'HEAD')).isSymbolicLink()).toBe(true);
  });

  it("walks a linked worktree's own git dir, not a sibling's", async () => {
    const repo = await committedRepo();
    repo.git('worktree', 'add', '-q', '--detach', join(repo.root, 'wt-a'));
    repo.git('worktree', 'add', '-q', '--detach', join(repo.root, 'wt-b'));
    const own = join(repo.gitDir, 'worktrees/wt-a');
    mkfifo(join(own, 'MERGE_HEAD'));
    mkfifo(join(repo.gitDir, 'worktrees/wt-b/MERGE_HEAD'));
    mkfifo(join(repo.gitDir, 'packed-refs'));

    const walk = gitDirStrays([repo.gitDir, own], new Map());

    expect(walk.strays.map((stray) => stray.path).sort()).toEqual(
      [join(own, 'MERGE_HEAD'), join(repo.gitDir, 'packed-refs')].sort(),
    );
  });

  it('stops at its cap and names the git dir it did not walk whole', async () => {
    const repo = await committedRepo();
    await mkdir(join(repo.gitDir, 'refs/heads/many'));
    for (let at = 0; at < 40; at++) mkfifo(join(repo.gitDir, `refs/heads/many/f${at}`));

    const capped = gitDirStrays([repo.gitDir], new Map(), 30);
    const whole = gitDirStrays([repo.gitDir], new Map());

    expect(capped.unfinished).toEqual([repo.gitDir]);
    expect(capped.strays.length).toBeLessThan(40);
    expect(whole).toMatchObject({ unfinished: [] });
    expect(whole.strays).toHaveLength(40);
    expect(nestedSweepLines({ moved: [], mended: [], unfinished: capped.unfinished })).toEqual([
      expect.stringContaining(
        `the box looked for FIFOs and devices in ${repo.gitDir} and could not see all of it (it stops after 100000 entries`,
      ),
    ]);
  });
});

describe('each walk after the first lists only the folders that changed', () => {
  /** A time well after every change here: no folder is too fresh for a walk to vouch for. */
  const later = () => Date.now() + 60_000;

  it('finds what was added to a folder it had seen, and lists no folder that is as it was', async () => {
    const repo = await committedRepo();
    await mkdir(join(repo.gitDir, 'refs/heads/many'));
    for (let at = 0; at < 40; at++) execFileSync('touch', [join(repo.gitDir, `refs/heads/many/f${at}`)]);
    const first = gitDirStrays([repo.gitDir], new Map(), undefined, new Map(), later());
    expect(first.strays).toEqual([]);

    // Nothing changed: a cap of one entry is not reached, since no folder is listed again.
    const unchanged = gitDirStrays([repo.gitDir], new Map(), 1, first.memory, later());
    expect(unchanged).toMatchObject({ strays: [], unfinished: [] });
    expect(gitDirStrays([repo.gitDir], new Map(), 1, new Map(), later()).unfinished).toEqual([repo.gitDir]);

    // A FIFO in a folder two levels down: that folder's change time moved, so it is listed again.
    mkfifo(join(repo.gitDir, 'refs/heads/many/planted'));
    const again = gitDirStrays([repo.gitDir], new Map(), undefined, unchanged.memory, later());
    expect(again.strays).toEqual([{ path: join(repo.gitDir, 'refs/heads/many/planted'), what: 'a FIFO' }]);
  });

  it('judges a link again though its folder is unchanged: what it leads to changes elsewhere', async () => {
    const repo = await committedRepo();
    // info/ is held read-only in the box and not walked: only the link's own judgement can catch it.
    const target = join(repo.gitDir, 'info/target');
    execFileSync('touch', [target]);
    await symlink('../../info/target', join(repo.gitDir, 'refs/heads/linked'));
    const first = gitDirStrays([repo.gitDir], new Map(), undefined, new Map(), later());
    expect(first.strays).toEqual([]);

    execFileSync('rm', [target]);
    mkfifo(target);
    const again = gitDirStrays([repo.gitDir], new Map(), undefined, first.memory, later());
    expect(again.strays).toEqual([{ path: join(repo.gitDir, 'refs/heads/linked'), what: 'a link to a FIFO' }]);
  });

  it('a link out of the git dir is a stray whatever it leads to now, unless it was yours as the box was made', async () => {
    const repo = await committedRepo();
    await symlink(join(repo.root, 'kept-target'), join(repo.gitDir, 'refs/yours'));
    const asMade = gitDirStrays([repo.gitDir], new Map());
    // The red team's F4: to ralph /proc/self/fd/1 is its log, a plain file; to your git, its own pipe.
    await symlink('/proc/self/fd/1', join(repo.gitDir, 'objects/info/alternates'));
    execFileSync('touch', [join(repo.root, 'file')]);
    await symlink('../../file', join(repo.gitDir, 'refs/agents'));
    const walk = gitDirStrays([repo.gitDir], asMade.kept);
    expect(walk.strays.sort((a, b) => (a.path < b.path ? -1 : 1))).toEqual([
      { path: join(repo.gitDir, 'objects/info/alternates'), what: expect.stringMatching(/^a link /) },
      { path: join(repo.gitDir, 'refs/agents'), what: 'a link out of the git dir' },
    ]);
  });

  it('lists again a folder changed too close to the walk for its time to tell', async () => {
    const repo = await committedRepo();
    const folder = join(repo.gitDir, 'refs/heads');
    const changedAt = Number(lstatSync(folder, { bigint: true }).ctimeNs / 1_000_000n);
    // Within the clock's tick of a change, a later change could leave the same time: not vouched for.
    expect(gitDirStrays([repo.gitDir], new Map(), undefined, new Map(), changedAt + 1000).memory.has(folder)).toBe(
      false,
    );
    expect(gitDirStrays([repo.gitDir], new Map(), undefined, new Map(), changedAt + 3000).memory.has(folder)).toBe(
      true,
    );
  });
});

describe('a folder the walk cannot list', () => {
  it('is said, not taken for empty: a path longer than the system takes', async () => {
    const repo = await committedRepo();
    // Each part well under NAME_MAX, the whole over PATH_MAX (4096): git can still reach it relatively.
    const part = 'd'.repeat(200);
    execFileSync('sh', ['-c', `for i in $(seq 1 22); do mkdir ${part} && cd -P ${part}; done`], {
      cwd: join(repo.gitDir, 'refs/heads'),
    });
    const walk = gitDirStrays([repo.gitDir], new Map());
    // GNU rm goes down by file descriptors: the temporary folder's own removal may not.
    execFileSync('rm', ['-rf', join(repo.gitDir, 'refs/heads', part)]);
    expect(walk.unfinished).toEqual([repo.gitDir]);
  });
});
