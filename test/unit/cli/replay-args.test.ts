import { describe, expect, it } from 'vitest';
import { replayableRunArgs, runWords } from '../../../src/cli/replay-args.js';

describe('the words of ralph run that ralph answer --run replays', () => {
  it('keeps the run options as given, in order', () => {
    expect(replayableRunArgs(['--max-iterations', '5', '--sandbox', '--max-cost=2', '-y', '--no-gates'])).toEqual([
      '--max-iterations',
      '5',
      '--sandbox',
      '--max-cost=2',
      '-y',
      '--no-gates',
    ]);
  });

  it('leaves out what acts once and what may carry a secret, with its value', () => {
    expect(
      replayableRunArgs([
        '--reset-resumes',
        '--notify',
        'https://hooks.example/T0/secret',
        '--max-stuck',
        '2',
        '--notify=https://hooks.example/other',
        '--dry-run',
      ]),
    ).toEqual(['--max-stuck', '2']);
  });

  it('leaves out of a worktree run what makes the worktree and picks its list: the replay is typed inside it', () => {
    expect(
      replayableRunArgs(['--worktree', '--tasks', 'ralph/lists/api.json', '--from', 'main', '--max-cost', '3']),
    ).toEqual(['--max-cost', '3']);
    // Outside a worktree run, --tasks is the list the run worked on, and is kept.
    expect(replayableRunArgs(['--tasks', 'ralph/lists/api.json'])).toEqual(['--tasks', 'ralph/lists/api.json']);
  });

  it('finds the words of run only', () => {
    expect(runWords(['node', 'ralph', 'run', '--quiet'])).toEqual(['--quiet']);
    expect(runWords(['node', 'ralph', 'answer', 'run'])).toBeUndefined();
  });
});
