import type { BoxRequest } from '../box/open-box.js';
import type { ConfigFile } from '../config/config-schema.js';
import { resolveSettings } from '../config/resolve-settings.js';
import { networkOf } from '../box/box-network.js';

/**
 * The box for an integration's gates, which run the loops' code: the mode and paths as a run reads
 * them, from the variables (`RALPH_BOX`, …) and the checkout's ralph/config.json (which may only
 * narrow it). A gate is no client: no client state is kept writable.
 */
export function integrationBox(config: ConfigFile, env: NodeJS.ProcessEnv): Omit<BoxRequest, 'root'> {
  const { settings } = resolveSettings({}, env, config);
  return {
    mode: settings.box,
    env,
    clientState: [],
    extras: { write: settings.boxWrite, readOnly: settings.boxReadOnly, hidden: settings.boxHide },
    sandboxed: false,
    network: networkOf(settings, []),
  };
}
