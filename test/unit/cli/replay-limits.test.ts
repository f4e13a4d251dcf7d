import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { replayedBox, replayedFiles, withRecordedLimit } from '../../../src/cli/replay-limits.js';

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function repository(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'ralph-replay-'));
  made.push(root);
  await mkdir(join(root, 'ralph'));
  await writeFile(join(root, 'ralph/prompt.md'), 'prompt\n');
  return root;
}

describe('replayedFiles: a replay reads no file outside the repository', () => {
  it('takes a prompt and a list inside it, as given or relative to it', async () => {
    const root = await repository();
    await expect(
      replayedFiles({ prompt: 'ralph/prompt.md', tasks: join(root, 'ralph/tasks.json') }, root, 'record'),
    ).resolves.toBeUndefined();
  });

  it.each([
    ['an absolute path elsewhere', { prompt: '/etc/hostname' }, '--prompt /etc/hostname'],
    ['a way up and out', { prompt: '../prompt.md' }, '--prompt ../prompt.md'],
    ['a list elsewhere', { tasks: '/tmp/tasks.json' }, '--tasks /tmp/tasks.json'],
  ])('refuses %s, naming the record and the flag', async (_case, flags, named) => {
    const root = await repository();
    await expect(replayedFiles(flags, root, '.git/ralph/last-run.json')).rejects.toMatchObject({
      kind: 'setup',
      message: `--run: .git/ralph/last-run.json holds ${named}, a file outside the repository; a replay reads no file from there`,
    });
  });

  it('refuses a link inside the repository to a file outside it', async () => {
    const root = await repository();
    const outside = await mkdtemp(join(tmpdir(), 'ralph-outside-'));
    made.push(outside);
    await writeFile(join(outside, 'prompt.md'), 'elsewhere\n');
    await symlink(join(outside, 'prompt.md'), join(root, 'ralph/linked.md'));
    await expect(replayedFiles({ prompt: 'ralph/linked.md' }, root, 'record')).rejects.toThrow(
      'holds --prompt ralph/linked.md, a file outside the repository',
    );
  });
});

describe('withRecordedLimit: never more iterations than the recorded run had', () => {
  it('pins the recorded limit when the words name none (a raised ralph/config.json does not raise it)', () => {
    expect(withRecordedLimit({ maxStuck: 2 }, 5, 'record')).toEqual({ maxStuck: 2, maxIterations: 5 });
  });

  it('keeps a limit at or below the recorded one', () => {
    expect(withRecordedLimit({ maxIterations: 5 }, 5, 'record')).toEqual({ maxIterations: 5 });
    expect(withRecordedLimit({ maxIterations: 3 }, 5, 'record')).toEqual({ maxIterations: 3 });
  });

  it('refuses a limit above the recorded one', () => {
    expect(() => withRecordedLimit({ maxIterations: 500 }, 5, 'record')).toThrow(
      '--run: record holds --max-iterations 500, above the 5 its run had',
    );
  });

  it.each([undefined, 0, 2.5, '7', null])('leaves the words as they are beside a recorded limit of %s', (recorded) => {
    expect(withRecordedLimit({ maxIterations: 9 }, recorded, 'record')).toEqual({ maxIterations: 9 });
  });
});

describe('replayedBox: a replay never widens the box', () => {
  it.each([[{}], [{ box: 'bubblewrap' }], [{ box: 'seatbelt' }], [{ boxNetwork: 'allow-list' }]])(
    'takes the narrowest: %o',
    (flags) => {
      expect(() => replayedBox(flags, 'record')).not.toThrow();
    },
  );

  it.each([
    [{ box: 'none' }, '--box none'],
    [{ box: 'auto' }, '--box auto'],
    [{ boxNetwork: 'open' }, '--box-network open'],
  ])('refuses %o, naming the record and the flag', (flags, named) => {
    expect(() => replayedBox(flags, '.git/worktrees/b/ralph/last-run.json')).toThrow(
      `--run: .git/worktrees/b/ralph/last-run.json holds ${named}, which would widen the agent's box`,
    );
  });
});
