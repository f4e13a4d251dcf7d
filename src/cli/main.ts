import { Command, CommanderError, Option } from 'commander';
import { errorLine, knownError, RalphError } from '../errors.js';
import { CI_PROVIDERS, type CiProvider } from '../init/ci-providers.js';
import { RESETTABLE } from '../init/reset-files.js';
import { endingOf, exitCodeFor } from '../loop/termination.js';
import { PACKAGE_VERSION, whereToReport } from '../package-info.js';
import { fencedFromRunner } from '../ui/runner-fence.js';
import { oneLineUsageErrors } from './usage-errors.js';
import { declareIntegrate } from './declare-integrate.js';
import { declareAnswer } from './answer-command.js';
import { declareRun, declareRunOptions } from './run-command.js';
import { declareLists, declareWorktrees } from './list-commands.js';
import { detectCi } from '../process/ci-environment.js';
import { currentDirectory, requireWorkingDirectory } from './working-directory.js';

/** The exit code of a bad command line: a usage error, like every other refusal of its kind. */
const USAGE_EXIT_CODE = exitCodeFor(endingOf(new RalphError('usage', 'bad command line')));

/** Declares the commands; each loads its module only when it runs, so start-up stays fast. */
function buildProgram(setExitCode: (code: number) => void, argv: readonly string[] = []): Command {
  const program = new Command('ralph')
    .description('Run an AI coding agent in a loop until the task list is done.')
    .version(PACKAGE_VERSION, '-V, --version')
    // A mistyped option gets "(did you mean --max-iterations?)"; subcommands inherit this.
    .showSuggestionAfterError(true)
    .exitOverride();
  const run = declareRun(program, setExitCode, argv);
  declareInit(program, setExitCode);
  declareArchive(program, setExitCode);
  declareStatus(program, setExitCode);
  declareLists(program, setExitCode);
  declareWorktrees(program, setExitCode);
  declareReport(program, setExitCode);
  declareAnswer(program, setExitCode);
  declareDemo(program, setExitCode);
  declareIntegrate(program, setExitCode);
  declareHook(program, setExitCode);
  declareHelp(program, run);
  // Before any command's action; not help or --version, which need no folder, nor the Stop hook, which never fails.
  program.hook('preAction', (_program, command) => {
    if (command.name() !== 'help' && command.parent?.name() !== 'hook') requireWorkingDirectory();
  });
  oneLineUsageErrors(program);
  return program;
}

type SetExitCode = (code: number) => void;

function declareInit(program: Command, setExitCode: SetExitCode): void {
  program
    .command('init')
    .description('scaffold ralph/ in this repository: prompt, PRD guide, task list, progress notes')
    .option(
      '--force',
      "re-write what the other flags name (--ci: the workflow) and ralph's schema copy; never your task files",
      false,
    )
    .option(
      '--reset <file>',
      `replace one of your files with its template, after a backup beside it (${RESETTABLE.join(', ')}; repeatable, or a list)`,
      (value: string, previous: string[] = []) => [...previous, value],
    )
    .addOption(new Option('--ci <provider>', 'also write a CI workflow').choices(CI_PROVIDERS))
    .option(
      '--from <dir>',
      'import a ralph.sh setup from this folder: prd.json, progress.txt and its prompt file (nothing there is changed)',
    )
    .option(
      '--install <spec>',
      'with --ci: what the workflow installs instead of this version of ralph (git URL, tarball, path)',
    )
    .option('--vendor', 'with --ci: pack this ralph into ralph/vendor/ and have the workflow install that file', false)
    .option('--matrix', 'with --ci github: one job per task list under ralph/lists/, then ralph integrate', false)
    .option('--agent <kind>', 'the agent client to set up and write to ralph/config.json (docs/agents.md)')
    .action(
      async (options: {
        force: boolean;
        reset?: string[];
        ci?: CiProvider;
        from?: string;
        install?: string;
        vendor: boolean;
        matrix: boolean;
        agent?: string;
      }) => {
        const { initCommand } = await import('../commands/init.js');
        setExitCode(await initCommand({ cwd: process.cwd(), ...options }));
      },
    );
}

function declareArchive(program: Command, setExitCode: SetExitCode): void {
  program
    .command('archive')
    .description('move the finished task list to ralph/archive/DATE-NAME/ and start a fresh one')
    .option('--include-logs', 'move ralph/logs/ into the archive too', false)
    .option('--name <name>', "archive name (default: the task list's branchName, or project)")
    .option('-y, --yes', 'archive even when stories are not complete, without asking', false)
    .option('--tasks <file>', 'archive this task list (one of ralph/lists/*.json) instead of ralph/tasks.json')
    .action(async (options: { includeLogs: boolean; name?: string; yes: boolean; tasks?: string }) => {
      const { archiveCommand } = await import('../commands/archive.js');
      setExitCode(await archiveCommand({ cwd: process.cwd(), ...options }));
    });
}

function declareStatus(program: Command, setExitCode: SetExitCode): void {
  program
    .command('status')
    .description('where the loop stands: stories, the running loop, signals, the last iterations')
    .option('--json', 'print one JSON object instead of text', false)
    .option('--tasks <file>', 'show this task list (one of ralph/lists/*.json) instead of ralph/tasks.json')
    .action(async (options: { json: boolean; tasks?: string }) => {
      const { statusCommand } = await import('../commands/status.js');
      setExitCode(await statusCommand({ cwd: process.cwd(), ...options }));
    });
}

function declareReport(program: Command, setExitCode: SetExitCode): void {
  program
    .command('report')
    .description('write one self-contained HTML (or Markdown) report of the runs: timeline, cost, receipts per story')
    .option('--out <file>', 'where to write it (default: ralph/logs/report.html, or report.md)')
    .option('--open', "open it with the platform's opener when a display exists (never in CI)", false)
    .option('--tasks <file>', 'read this file as the task list instead of ralph/tasks.json')
    .option('--format <format>', 'html or md (Markdown tables for a PR body or a step summary)', 'html')
    .action(async (options: { out?: string; open: boolean; tasks?: string; format: string }) => {
      const { reportCommand } = await import('../commands/report.js');
      setExitCode(await reportCommand({ cwd: process.cwd(), ...options }));
    });
}

function declareDemo(program: Command, setExitCode: SetExitCode): void {
  const demo = program
    .command('demo')
    .description('watch the real loop finish three tiny stories against a bundled scripted agent')
    .option(
      '--print-agent-path',
      'print the scripted agent\'s path and exit: try the loop on your own repository without a real agent, with ralph run --agent-bin "$(ralph demo --print-agent-path)"',
    )
    .action(async (options: { agent?: string; printAgentPath?: boolean }) => {
      const { demoCommand } = await import('../commands/demo.js');
      setExitCode(await demoCommand({ ...options, printAgentPath: options.printAgentPath === true }));
    });
  // The scripted agent speaks as the chosen kind's client, in that client's own stream. The option is
  // declared as run's are, only when demo is about to be parsed.
  program.hook('preSubcommand', async (_program, command) => {
    if (command !== demo || demo.options.some((option) => option.long === '--agent')) return;
    const [{ runOption }, { RUN_OPTIONS }] = await Promise.all([
      import('./run-flags.js'),
      import('../config/run-options.js'),
    ]);
    demo.addOption(runOption(RUN_OPTIONS.agent));
  });
}

function declareHook(program: Command, setExitCode: SetExitCode): void {
  const hook = program
    .command('hook')
    .description("entry points for an agent client's hooks (ralph init registers them)");
  hook
    .command('stop')
    .description(
      "the agent client's Stop hook: during a loop, refuse a stop that leaves tasks.json broken or work uncommitted",
    )
    .action(async () => {
      const { hookStopCommand } = await import('../commands/hook-stop.js');
      setExitCode(
        // A hook never fails its client: in a deleted folder it goes by its input's cwd, or allows the stop.
        await hookStopCommand({
          stdin: process.stdin,
          stdout: process.stdout,
          env: process.env,
          cwd: currentDirectory() ?? '/',
        }),
      );
    });
}

/** `ralph help [command...]`, in place of commander's own, which would show `run` before its options exist. */
function declareHelp(program: Command, run: Command): void {
  program
    .helpCommand(false)
    .command('help [command...]')
    .description('display help for a command, or a subcommand: ralph help hook stop')
    .action(async (names: string[]) => {
      let command: Command = program;
      for (const name of names) {
        const next = command.commands.find(
          (candidate) => candidate.name() === name || candidate.aliases().includes(name),
        );
        if (!next)
          return program.error(`unknown command '${names.join(' ')}'`, {
            exitCode: USAGE_EXIT_CODE,
            code: 'commander.unknownCommand',
          });
        command = next;
      }
      if (command === run) await declareRunOptions(run);
      command.help();
    });
}

/** Runs the CLI: one place maps errors to messages and exit codes. */
export async function main(argv: string[]): Promise<number> {
  let exitCode = 0;
  const program = buildProgram((code) => {
    exitCode = code;
  }, argv);
  // A closed terminal pipe (ralph run | head) must not crash the loop.
  process.stdout.on('error', () => undefined);
  process.stderr.on('error', () => undefined);
  try {
    await program.parseAsync(argv);
    return exitCode;
  } catch (error) {
    // An OS error on a file (a full disk as the lock is written) is the user's to fix, not a bug.
    const known = knownError(error);
    const { github } = detectCi(process.env);
    const code = reportError(known ?? error, github);
    // A bad command line is a refused start too: on Actions it is annotated, and its reason output.
    const refused = known ?? commandLineRefusal(error);
    if (refused) await hearRefusal(refused, github);
    return code;
  }
}

/** A start refused before any lock, told to the run's listeners (on GitHub Actions: its annotation and outputs). */
async function hearRefusal(refusal: RalphError, github: boolean): Promise<void> {
  const [{ listenersFor }, { hearRefusal: tell }] = await Promise.all([
    import('../run-lifecycle/run-listeners.js'),
    import('../outlets/combined-listeners.js'),
  ]);
  const write = (stream: NodeJS.WritableStream) => (text: string) => void stream.write(`${text}\n`);
  const [line, error] = [write(process.stdout), write(process.stderr)];
  const out = { line, command: line, error, status: () => undefined };
  await tell(listenersFor(undefined, { out, env: process.env, github }), refusal);
}

/** commander's refusal of the command line as the usage error it is; undefined for help and --version. */
function commandLineRefusal(error: unknown): RalphError | undefined {
  if (!(error instanceof CommanderError) || NOT_ERRORS.includes(error.code)) return undefined;
  const said = error.message.split('\n')[0]!.replace(/^error: /, '');
  return new RalphError('usage', said, 'see `ralph --help` for the command line');
}

/** What commander ends with that is no error: help shown, the version printed. */
const NOT_ERRORS = ['commander.helpDisplayed', 'commander.version', 'commander.help'];

function reportError(error: unknown, github: boolean): number {
  if (error instanceof CommanderError) {
    // Help and version are not errors; everything else commander rejects is a usage error.
    if (NOT_ERRORS.includes(error.code)) return 0;
    return USAGE_EXIT_CODE;
  }
  if (error instanceof RalphError) {
    // A refusal may quote an agent's words (a blocked reason): on Actions the runner must not obey them.
    process.stderr.write(github ? fencedFromRunner(errorLine(error)) : `${errorLine(error)}\n`);
    return exitCodeFor(endingOf(error));
  }
  process.stderr.write(
    `ralph: internal error — this is a bug in ralph, not in your project. Please report it ${whereToReport()}, ` +
      `and this trace.\n${(error as Error)?.stack ?? String(error)}\n`,
  );
  return exitCodeFor({ reason: 'internal_error', message: String(error) });
}
