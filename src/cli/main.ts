import { readFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { RalphError, SETUP_EXIT_CODE } from '../errors.js';
import { integerAtLeast } from './parse-values.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

/** Declares the commands; each loads its module only when it runs, so start-up stays fast. */
export function buildProgram(setExitCode: (code: number) => void): Command {
  const program = new Command('ralph')
    .description('Run an AI coding agent in a loop until the task list is done.')
    .version(version, '-V, --version')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();

  program
    .command('run')
    .description('run the loop: one fresh agent per iteration until every story passes')
    .addOption(new Option('--max-iterations <n>', 'iterations this run may start').default(10).argParser(integerAtLeast(1)))
    .addOption(new Option('--max-stuck <n>', 'consecutive iterations without a commit before stopping').default(3).argParser(integerAtLeast(1)))
    .option('--prompt <file>', 'prompt file sent every iteration (default: ralph/prompt.md)')
    .option('--agent-bin <path>', 'agent executable taking claude\'s arguments', 'claude')
    .action(async (options: { maxIterations: number; maxStuck: number; prompt?: string; agentBin: string }) => {
      const { runCommand } = await import('../commands/run.js');
      setExitCode(await runCommand({ cwd: process.cwd(), ...options }));
    });

  program
    .command('demo')
    .description('watch the real loop finish three tiny stories against a bundled scripted agent')
    .action(async () => {
      const { demoCommand } = await import('../commands/demo.js');
      setExitCode(await demoCommand());
    });

  return program;
}

/** Runs the CLI: one place maps errors to messages and exit codes. */
export async function main(argv: string[]): Promise<number> {
  let exitCode = 0;
  const program = buildProgram((code) => {
    exitCode = code;
  });
  // A closed terminal pipe (ralph run | head) must not crash the loop.
  process.stdout.on('error', () => undefined);
  process.stderr.on('error', () => undefined);
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    return reportError(error);
  }
}

function reportError(error: unknown): number {
  if (error instanceof CommanderError) {
    // Help and version are not errors; everything else commander rejects is a usage error.
    if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return 0;
    return SETUP_EXIT_CODE;
  }
  if (error instanceof RalphError) {
    process.stderr.write(`ralph: ${error.message}${error.hint ? ` — ${error.hint}` : ''}\n`);
    return error.exitCode;
  }
  process.stderr.write(`ralph: internal error (a bug — please report it with this trace):\n${(error as Error)?.stack ?? String(error)}\n`);
  return 70;
}
