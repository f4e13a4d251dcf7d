import type { Command } from 'commander';
import { maskTarget } from '../config/mask-secrets.js';

/**
 * commander's `error: …` message as ralph's one line, like every other refusal:
 * `ralph: unknown option '--max-iteration' (did you mean --max-iterations?) — see `ralph run --help``.
 */
export function usageLine(text: string, commandPath: string): string {
  const said = text
    .trim()
    .replace(/^error: /, '')
    // "argument 'ten' is invalid. expected a whole number", "for 'status'. Expected 0 arguments":
    // the reason follows a colon, in lower case, as in ralph's other lines.
    .replace(
      /(is invalid|for '[^']*')\. (\w)/,
      (_all, what: string, first: string) => `${what}: ${first.toLowerCase()}`,
    )
    .replace(/\n\(Did you mean /, ' (did you mean ')
    .replace(/\.$/, '')
    // A notification target may hold a webhook's secret: shown masked, like everywhere else.
    .replace(
      /(option '--notify <target>' argument ')(.*?)(' is invalid)/s,
      (_all, before: string, target: string, after: string) => `${before}${maskTarget(target)}${after}`,
    )
    // commander names the value; a reason that ends by naming it again (`, got '…'`) names it once.
    .replace(/^(option '[^']*' argument '(.*?)' is invalid: .*), got '\2'$/s, '$1');
  return `ralph: ${said} — see \`${commandPath} --help\`\n`;
}

/** Every command of the program reports a bad command line in that one line, naming its own help. */
export function oneLineUsageErrors(command: Command, path = command.name()): void {
  command.configureOutput({ outputError: (text, write) => write(usageLine(text, path)) });
  for (const sub of command.commands) oneLineUsageErrors(sub, `${path} ${sub.name()}`);
}
