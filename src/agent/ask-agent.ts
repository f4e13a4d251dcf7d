import { runCaptured, type Captured } from '../process/run-captured.js';

/** A command line: the program and its arguments. */
export interface CommandLine {
  file: string;
  args: string[];
}

/** How the run's box wraps a command run from `cwd` (the box's own `wrap`). */
export type Enclose = (command: CommandLine, cwd: string) => CommandLine;

/** How ralph asks the agent's own program a question (`--version`, `auth status`), bounded. */
export type AskAgent = (args: string[], limits: { timeoutMs: number; maxBytes: number }) => Promise<Captured>;

/**
 * Questions to the agent's program, asked inside the run's box where it has one. The program and
 * its environment may come from ralph/config.json (`agent.bin`, `agent.env` with an LD_PRELOAD),
 * which the agent writes and can commit on a branch a later run switches to: what runs of them
 * runs where the agent does, never on this machine outside the box.
 */
export function askAgent(path: string, env: NodeJS.ProcessEnv, cwd: string, enclose?: Enclose): AskAgent {
  return (args, limits) => {
    const command = enclose ? enclose({ file: path, args }, cwd) : { file: path, args };
    return runCaptured(command.file, command.args, { env, cwd, ...limits });
  };
}
