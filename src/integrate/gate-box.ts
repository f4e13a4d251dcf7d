import type { BoxRequest } from '../box/open-box.js';
import { boxRequestOf } from '../box/box-settings.js';
import type { ConfigFile } from '../config/config-schema.js';
import { resolveSettings } from '../config/resolve-settings.js';

/**
 * The box for an integration's gates, which run the loops' code: the mode and paths as a run reads
 * them, from the variables (`RALPH_BOX`, …) and the checkout's ralph/config.json (which may only
 * narrow it). A gate is no client: no client state is kept writable. The Docker sandbox does not
 * hold an integration's gates, so the box does.
 */
export function integrationBox(config: ConfigFile, env: NodeJS.ProcessEnv): Omit<BoxRequest, 'root'> {
  const { settings } = resolveSettings({}, env, config);
  return boxRequestOf({ ...settings, sandbox: false }, env, { stateFolders: [], apiHosts: [], programs: [] });
}
