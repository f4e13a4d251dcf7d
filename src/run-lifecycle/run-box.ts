import { dialectOf } from '../agent/dialects.js';
import { lookUp } from '../process/find-executable.js';
import { openBox, type BoxChoice } from '../box/open-box.js';
import { boxRequestOf } from '../box/box-settings.js';
import type { ResolvedSettings } from '../config/resolve-settings.js';

/**
 * The run's OS box, from its settings: every client it may start (the agent and the fallback) keeps
 * its own state writable, the user's extra paths join the defaults, and in allow-list mode the
 * clients' own API hosts join the user's. `warn` hears of each host the box refused, once.
 */
export function openRunBox(
  { settings }: ResolvedSettings,
  root: string,
  env: NodeJS.ProcessEnv,
  options: { dryRun?: boolean; warn?: (line: string) => void; cwd?: string } = {},
): Promise<BoxChoice> {
  const kinds = settings.fallbackAgent === undefined ? [settings.agent] : [settings.agent, settings.fallbackAgent];
  const dialects = kinds.map(dialectOf);
  // Opened before the agent's program is first asked anything (its --version): found as the start checks find it.
  const agentBin =
    settings.agentBin === undefined ? undefined : lookUp(settings.agentBin, options.cwd ?? root, env.PATH ?? '');
  const programs = [agentBin, ...dialects.map((dialect) => lookUp(dialect.bin, root, env.PATH ?? ''))];
  const clients = {
    stateFolders: [...new Set(dialects.flatMap((dialect) => dialect.stateFolders))],
    programSettings: [...new Set(dialects.flatMap((dialect) => dialect.programSettings))],
    programKeys: [...new Set(dialects.flatMap((dialect) => dialect.programKeys ?? []))],
    apiHosts: dialects.flatMap((dialect) => dialect.apiHosts(env)),
    programs: programs.filter((program) => program !== undefined),
  };
  return openBox({ ...boxRequestOf(settings, env, clients, options.warn), root, dryRun: options.dryRun === true });
}
