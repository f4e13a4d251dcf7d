import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addRunOptions, givenRunArgs, givenRunFlags } from '../../../src/cli/run-flags.js';

/** The options `ralph run` would read from these words. */
function parsed(words: readonly string[]): Record<string, unknown> {
  const run = addRunOptions(new Command('run').exitOverride().configureOutput({ writeErr: () => undefined }));
  run.parse([...words], { from: 'user' });
  return run.opts<Record<string, unknown>>();
}

describe('givenRunArgs: the options a parallel run passes on to each loop', () => {
  it('gives each loop words that parse back to the same options, a repeatable one once per value', () => {
    const words = [
      '--notify',
      'desktop',
      '--notify',
      'https://hooks.example/T0',
      '--max-cost',
      '5',
      '--skip-review',
      '--no-branch',
      '--notify-on',
      'blocked,decide',
    ];
    const given = parsed(words);
    const passed = givenRunArgs(given);
    expect(passed).toEqual(expect.arrayContaining(['--notify', 'desktop', '--notify', 'https://hooks.example/T0']));
    expect(givenRunFlags(parsed(passed))).toEqual(givenRunFlags(given));
  });

  it('leaves the task list to the supervisor', () => {
    expect(givenRunArgs(parsed(['--tasks', 'ralph/lists/a.json', '--quiet']))).toEqual(['--quiet']);
  });
});
