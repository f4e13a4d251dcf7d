import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { indexPaths, readIndexPaths } from '../../../src/git/index-file.js';
import { seeded } from '../../helpers/seeded-random.js';
import { realRepository } from './real-repository.js';

const LINK = '1'.repeat(40);
// Longer than the 12 bits of length an entry's flags hold: git then ends the name with a NUL alone.
const LONG = `${'deep/'.repeat(900)}file`;

/** A repository whose index git wrote with files, a gitlink and a name too long for the flags. */
async function populated(initArgs: string[] = []) {
  const repo = await realRepository('ralph-index-', initArgs);
  const link = initArgs.includes('--object-format=sha256') ? '1'.repeat(64) : LINK;
  repo.git('commit', '-q', '--allow-empty', '-m', 'init');
  const blob = repo.git('hash-object', '-w', '--stdin');
  for (const path of ['README', 'src/a.ts', 'src/lib/b.ts', LONG])
    repo.git('update-index', '--add', '--cacheinfo', `100644,${blob},${path}`);
  repo.git('update-index', '--add', '--cacheinfo', `160000,${link},vendor/nested`);
  return repo;
}

/** What git itself says: the gitlinks of `ls-files --stage`, and the folders of every path. */
function fromGit(repo: { git: (...args: string[]) => string }) {
  const entries = repo.git('ls-files', '--stage', '-z').split('\0').filter(Boolean);
  const paths = entries.map((entry) => entry.slice(entry.indexOf('\t') + 1));
  const folders = new Set(
    paths.flatMap((path) =>
      path
        .split('/')
        .slice(0, -1)
        .map((_, at, parts) => parts.slice(0, at + 1).join('/')),
    ),
  );
  return { gitlinks: paths.filter((_, at) => entries[at]?.startsWith('160000 ')), folders };
}

describe('the index read from its file', () => {
  it.each([
    ['version 2', 2, [], []],
    ['version 3 (an extended flag)', 3, [], ['add', '-N', 'intent']],
    ['version 4 (names prefix-compressed)', 4, [], ['update-index', '--index-version', '4']],
    ['SHA-256', 2, ['--object-format=sha256'], []],
  ])('says what git says of %s', async (_name, version, initArgs, command) => {
    const repo = await populated(initArgs);
    writeFileSync(join(repo.root, 'intent'), 'x');
    if (command.length > 0) repo.git(...command);
    expect(readFileSync(join(repo.root, '.git/index')).readUInt32BE(4)).toBe(version);
    const read = await readIndexPaths(repo.root);
    expect(read).toEqual(fromGit(repo));
    expect(read?.gitlinks).toEqual(['vendor/nested']);
    expect(read?.folders.has('deep/'.repeat(900).slice(0, -1))).toBe(true);
  });

  it('leaves a split index, and a repository without a commit, to git', async () => {
    const repo = await populated();
    repo.git('update-index', '--split-index');
    expect(await readIndexPaths(repo.root)).toBeUndefined();
    const empty = await realRepository('ralph-index-');
    expect(await readIndexPaths(empty.root)).toBeUndefined();
  });

  it('never throws on bytes the agent wrote: cut short or changed anywhere, it reads or gives up', async () => {
    const repo = await populated();
    const bytes = readFileSync(join(repo.root, '.git/index'));
    const { next: random } = seeded(42);
    for (let round = 0; round < 2000; round++) {
      const changed = Buffer.from(bytes.subarray(0, Math.floor(random() * (bytes.length + 1))));
      for (let flips = 0; flips < 3 && changed.length > 0; flips++)
        changed[Math.floor(random() * changed.length)] = Math.floor(random() * 256);
      const read = indexPaths(changed, 20);
      if (read) expect(Array.isArray(read.gitlinks)).toBe(true);
    }
    expect(indexPaths(Buffer.from('DIRC'), 20)).toBeUndefined();
    expect(indexPaths(Buffer.alloc(64), 20)).toBeUndefined();
  });
});
