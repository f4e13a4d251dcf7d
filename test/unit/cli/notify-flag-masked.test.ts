import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addRunOptions } from '../../../src/cli/run-flags.js';
import { oneLineUsageErrors } from '../../../src/cli/usage-errors.js';

/** What `ralph run <argv>` prints to stderr, with ralph's real run options. */
function stderrOf(argv: string[]): string {
  let written = '';
  const program = new Command('ralph').exitOverride();
  addRunOptions(program.command('run')).action(() => undefined);
  oneLineUsageErrors(program);
  for (const command of [program, ...program.commands]) {
    const { outputError } = command.configureOutput();
    command.configureOutput({ outputError, writeErr: (text) => (written += text) });
  }
  try {
    program.parse(['run', ...argv], { from: 'user' });
  } catch {
    // exitOverride: commander throws after printing.
  }
  return written;
}

// A mistyped webhook still holds its secret: Slack's own example URL ends in 24 letters, no digit.
const SLACK_SECRET = 'XXXXXXXXXXXXXXXXXXXXXXXX';

describe('a rejected --notify target', () => {
  it.each([
    [`http://hooks.slack.com/services/T00000000/B00000000/${SLACK_SECRET}`, SLACK_SECRET],
    ['ftp://bot:hunter2@hooks.example.com/notify', 'hunter2'],
    ['htps://hooks.example.com/api?code=letmein', 'letmein'],
    ['http:/hooks.example.com/hook#sig=abcdef', 'abcdef'],
  ])('is named once, masked: %s', (target, secret) => {
    const line = stderrOf(['--notify', target]);
    expect(line).toMatch(
      /^ralph: option '--notify <target>' argument '[^']*' is invalid: .* — see `ralph run --help`\n$/,
    );
    expect(line).not.toContain(secret);
    const shown = /argument '([^']*)'/.exec(line)![1]!;
    expect(shown).toContain('***');
    expect(line.split(shown)).toHaveLength(2);
  });
});
