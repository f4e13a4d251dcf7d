import type { Command } from 'commander';

/** The task lists' commands: `ralph lists` and `ralph worktrees prune` (docs/parallel.md). */

export function declareLists(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('lists')
    .description('every task list: its branch, stories passing, whether a loop runs on it, its last ending')
    .option('--json', 'print one JSON object instead of text', false)
    .action(async (options: { json: boolean }) => {
      const { listsCommand } = await import('../commands/lists.js');
      setExitCode(await listsCommand({ cwd: process.cwd(), ...options }));
    });
}

export function declareWorktrees(program: Command, setExitCode: (code: number) => void): void {
  const worktrees = program.command('worktrees').description("the task lists' worktrees under ralph/worktrees/");
  worktrees
    .command('prune')
    .description('remove the worktrees whose branch is merged or gone; never one with uncommitted work or a live loop')
    .option('--base <ref>', 'what a branch must be merged into (default: HEAD)')
    .action(async (options: { base?: string }) => {
      const { worktreesPruneCommand } = await import('../commands/worktrees.js');
      setExitCode(await worktreesPruneCommand({ cwd: process.cwd(), ...options }));
    });
}
