import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, runRalph } from '../helpers/e2e.js';

/**
 * ralph started by a shell whose current folder was deleted after it entered it. A process cannot
 * be spawned into a folder that is gone, so a shell enters it, deletes it, then becomes ralph.
 */
const IN_DELETED_FOLDER = ['sh', '-c', 'cd "$1" && rmdir "$1" && shift && exec "$@"', 'sh'];

describe('a current directory that no longer exists', () => {
  it('every command says so in one line with the fix, exit 64, and no agent is called', async () => {
    const repo = await makeRepo();
    await repo.steps([{ auto: true, completeWhenDone: true }]);
    const gone = join(repo.root, 'gone');
    const line =
      `ralph: the current directory ${gone} no longer exists (deleted or moved since this shell entered it)` +
      ' — cd into the repository by its path, then run again\n';
    for (const args of [['run'], ['run', '--dry-run'], ['status'], ['lists'], ['init'], ['report'], ['archive']]) {
      await mkdir(gone);
      const result = await runRalph(repo, args, { wrapper: [...IN_DELETED_FOLDER, gone] });
      expect(result.stderr, args.join(' ')).toBe(line);
      expect(result.code, args.join(' ')).toBe(64);
      expect(result.stdout).toBe('');
    }
    expect(repo.calls()).toBe(0);
    expect(repo.exists('ralph/logs')).toBe(false);
  });

  it('names no folder when the shell did not say which, and help and the Stop hook still work', async () => {
    const repo = await makeRepo();
    const gone = join(repo.root, 'gone');
    await mkdir(gone);
    // A PWD naming a folder that exists is not the deleted one: no folder is named.
    const stalePwd = ['sh', '-c', 'cd "$1" && rmdir "$1" && export PWD=/ && shift && exec "$@"', 'sh', gone];
    const unnamed = await runRalph(repo, ['status'], { wrapper: stalePwd });
    expect(unnamed.stderr).toBe(
      'ralph: the current directory no longer exists (deleted or moved since this shell entered it)' +
        ' — cd into the repository by its path, then run again\n',
    );
    expect(unnamed.code).toBe(64);
    for (const [args, input] of [
      [['--version'], undefined],
      [['run', '--help'], undefined],
      [['hook', 'stop'], '{}'],
    ] as const) {
      await mkdir(gone);
      const result = await runRalph(repo, [...args], {
        wrapper: [...IN_DELETED_FOLDER, gone],
        ...(input === undefined ? {} : { input }),
      });
      expect(result.code, args.join(' ')).toBe(0);
      expect(result.stderr, args.join(' ')).toBe('');
    }
  });
});
