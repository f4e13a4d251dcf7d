import type { AgentCommand } from '../agent/agent-command.js';
import type { ResolvedSettings } from '../config/resolve-settings.js';
import { RUN_OPTIONS, type RunOptionKey } from '../config/run-options.js';

/** What `ralph run --dry-run` prints: every resolved value with its source, and the agent command line. */
export function renderDryRun(resolved: ResolvedSettings, command: AgentCommand, promptShown: string): string {
  const rows: [string, string, string][] = (Object.keys(RUN_OPTIONS) as RunOptionKey[]).map((key) => {
    const value: unknown = resolved.settings[key];
    const format = (RUN_OPTIONS[key].kind as { format?: (value: unknown) => string }).format;
    return [key, value !== undefined && format ? format(value) : display(value), resolved.sources[key]];
  });
  for (const key of ['args', 'skipPermissions', 'env'] as const) {
    rows.push([`agent.${key}`, display(resolved.agent[key]), resolved.sources[`agent.${key}`]]);
  }
  const width = Math.max(...rows.map(([key]) => key.length)) + 2;
  const valueWidth = Math.min(40, Math.max(...rows.map(([, value]) => value.length)) + 2);
  const table = rows.map(([key, value, source]) => `  ${key.padEnd(width)}${value.padEnd(valueWidth)}${source}`);
  const argv = command.args.map((arg) => (arg === PROMPT_MARK ? `"$(cat ${shellQuote(promptShown)})"` : shellQuote(arg)));
  const stdin = command.input === undefined ? '' : ` < ${shellQuote(promptShown)}`;
  return [
    'Dry run: configuration, files, git and the agent check out. The agent was not called.',
    '',
    'Resolved configuration (flag > environment > ralph/config.json > default):',
    ...table,
    '',
    'Agent command (run in the repository root, stdin /dev/null, in its own process group):',
    `  ${[shellQuote(command.file), ...argv].join(' ')}${stdin}`,
    `  (the prompt is ${promptShown}, then the iteration's mode section and any loop feedback)`,
  ].join('\n');
}

/** Stands for the prompt in a command built for display. */
export const PROMPT_MARK = '\u0000prompt\u0000';

function display(value: unknown): string {
  if (value === undefined) return 'none';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** Quotes an argument for a POSIX shell when it needs it. */
export function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
