import type { Command } from 'commander';

/** `ralph answer`: declared here, not in main.ts, so the entry point stays one screen of commands. */
export function declareAnswer(program: Command, setExitCode: (code: number) => void): void {
  program
    .command('answer')
    .description("answer what the loop waits for: a DECIDE's question, or a BLOCKED's resolution")
    .argument('[text]', 'the answer (or --file)')
    .option('--file <file>', 'read the answer from this file')
    .option(
      '--tasks <file>',
      "the task list whose loop waits; a list's worktree (--worktree, --parallel) is answered there",
    )
    .option('--run', "then start the loop again at once, with the last run's options, as ralph recorded them", false)
    .action(async (text: string | undefined, options: { file?: string; tasks?: string; run: boolean }) => {
      const [{ answerCommand }, { readLastRunArgs }] = await Promise.all([
        import('../commands/answer.js'),
        import('./last-run-args.js'),
      ]);
      setExitCode(
        await answerCommand({
          cwd: process.cwd(),
          ...(options.run ? { replay: readLastRunArgs } : {}),
          ...(text === undefined ? {} : { text }),
          ...(options.file === undefined ? {} : { file: options.file }),
          ...(options.tasks === undefined ? {} : { tasks: options.tasks }),
        }),
      );
    });
}
