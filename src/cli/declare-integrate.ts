import type { Command } from 'commander';

/** `ralph integrate`, declared beside main.ts (which holds the other commands) and loaded only when it runs. */
export function declareIntegrate(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('integrate')
    .description("merge the finished task lists' branches into one, the quality gates after each")
    .option('--into <branch>', 'the integration branch (default: a new ralph/integration/<date>-<n>)')
    .action(async (options: { into?: string }) => {
      const { integrateCommand } = await import('../commands/integrate.js');
      setExitCode(await integrateCommand({ cwd: process.cwd(), ...options }));
    });
}
