import { dialectOf } from '../agent/dialects.js';
import { openBox, type BoxChoice } from '../box/open-box.js';
import type { ResolvedSettings } from '../config/resolve-settings.js';

/**
 * The run's OS box, from its settings: every client it may start (the agent and the fallback) keeps
 * its own state writable, and the user's extra paths join the defaults.
 */
export function openRunBox(
  { settings }: ResolvedSettings,
  root: string,
  env: NodeJS.ProcessEnv,
  dryRun = false,
): Promise<BoxChoice> {
  const kinds = settings.fallbackAgent === undefined ? [settings.agent] : [settings.agent, settings.fallbackAgent];
  return openBox({
    mode: settings.box,
    root,
    env,
    clientState: [...new Set(kinds.flatMap((kind) => dialectOf(kind).stateFolders))],
    extras: { write: settings.boxWrite, readOnly: settings.boxReadOnly, hidden: settings.boxHide },
    sandboxed: settings.sandbox !== false,
    dryRun,
  });
}
