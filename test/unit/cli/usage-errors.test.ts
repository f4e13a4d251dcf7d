import { Command, InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { oneLineUsageErrors, usageLine } from '../../../src/cli/usage-errors.js';

/** What a commander program built like ralph's prints to stderr for `argv`. */
function stderrOf(argv: string[]): string {
  let written = '';
  const program = new Command('ralph').showSuggestionAfterError(true).exitOverride();
  program
    .command('run')
    .option('--max-iterations <n>', 'iterations', (value) => {
      if (!/^\d+$/.test(value)) throw new InvalidArgumentError(`expected a whole number ≥ 1, got '${value}'`);
      return Number(value);
    })
    .action(() => undefined);
  program.command('status').action(() => undefined);
  oneLineUsageErrors(program);
  // Set after: where the line goes is the test's, how it reads is ralph's.
  for (const command of [program, ...program.commands]) {
    const { outputError } = command.configureOutput();
    command.configureOutput({ outputError, writeErr: (text) => (written += text) });
  }
  try {
    program.parse(argv, { from: 'user' });
  } catch {
    // exitOverride: commander throws after printing.
  }
  return written;
}

describe("a bad command line is one line in ralph's voice, naming the command's help", () => {
  it('an invalid value: the reason after a colon, the value named once', () => {
    expect(stderrOf(['run', '--max-iterations', 'ten'])).toBe(
      "ralph: option '--max-iterations <n>' argument 'ten' is invalid: expected a whole number ≥ 1 — see `ralph run --help`\n",
    );
  });

  it('a mistyped option: the suggestion on the same line', () => {
    expect(stderrOf(['run', '--max-iteration', '5'])).toBe(
      "ralph: unknown option '--max-iteration' (did you mean --max-iterations?) — see `ralph run --help`\n",
    );
  });

  it('an unknown command names the top-level help', () => {
    expect(stderrOf(['nope'])).toBe("ralph: unknown command 'nope' — see `ralph --help`\n");
  });

  it('an extra argument: a sentence, not two', () => {
    expect(stderrOf(['status', 'extra'])).toBe(
      "ralph: too many arguments for 'status': expected 0 arguments but got 1 — see `ralph status --help`\n",
    );
  });

  it('leaves a message with nothing to mend as it is, less the prefix', () => {
    expect(usageLine("error: missing required argument 'dir'\n", 'ralph init')).toBe(
      "ralph: missing required argument 'dir' — see `ralph init --help`\n",
    );
  });
});
