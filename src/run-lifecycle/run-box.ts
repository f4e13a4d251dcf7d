import { dialectOf } from '../agent/dialects.js';
import { lookUp } from '../process/find-executable.js';
import { openBox, type BoxChoice } from '../box/open-box.js';
import { networkOf } from '../box/box-network.js';
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
  options: { dryRun?: boolean; warn?: (line: string) => void; agentPath?: string | undefined } = {},
): Promise<BoxChoice> {
  const kinds = settings.fallbackAgent === undefined ? [settings.agent] : [settings.agent, settings.fallbackAgent];
  const dialects = kinds.map(dialectOf);
  return openBox({
    mode: settings.box,
    root,
    env,
    clientState: [...new Set(dialects.flatMap((dialect) => dialect.stateFolders))],
    extras: { write: settings.boxWrite, readOnly: settings.boxReadOnly, hidden: settings.boxHide },
    sandboxed: settings.sandbox !== false,
    dryRun: options.dryRun === true,
    programs: [
      options.agentPath ?? '',
      ...dialects.map((dialect) => lookUp(dialect.bin, root, env.PATH ?? '') ?? ''),
    ].filter(Boolean),
    network: networkOf(settings, [...dialects.flatMap((dialect) => dialect.apiHosts(env))], options.warn),
  });
}
