import { createInterface } from 'node:readline/promises';
import { isCi } from '../process/ci-environment.js';

/** Asks a yes/no question; resolves true only on an explicit yes. */
export type Confirm = (question: string) => Promise<boolean>;

/** A `[y/N]` question on the terminal, or undefined when nobody is there to answer (no TTY, or CI). */
export function terminalConfirm(env: NodeJS.ProcessEnv = process.env): Confirm | undefined {
  if (!process.stdin.isTTY || isCi(env)) return undefined;
  return async (question) => {
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    try {
      // Ctrl-C and Ctrl-D answer no: readline swallows them while it owns the terminal.
      const answer = await new Promise<string>((resolve) => {
        rl.once('SIGINT', () => resolve(''));
        rl.once('close', () => resolve(''));
        rl.question(`${question} [y/N] `).then(resolve, () => resolve(''));
      });
      return /^y(es)?$/i.test(answer.trim());
    } finally {
      rl.close();
    }
  };
}
