import { createInterface } from 'node:readline/promises';

/** Asks a yes/no question; resolves true only on an explicit yes. */
export type Confirm = (question: string) => Promise<boolean>;

/** Whether the environment says this is CI (`CI=true`, `CI=1`; not `CI=false` or empty). */
function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.CI?.trim().toLowerCase();
  return value !== undefined && value !== '' && value !== 'false' && value !== '0';
}

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
