import type { ResolvedSettings } from '../config/resolve-settings.js';
import { networkOf } from './box-network.js';
import type { BoxRequest } from './box-request.js';

/** What the box takes from the resolved settings. */
type BoxSettings = Pick<
  ResolvedSettings['settings'],
  'box' | 'boxWrite' | 'boxReadOnly' | 'boxHide' | 'boxNetwork' | 'boxAllowHost' | 'sandbox'
>;

/**
 * The one reading of the settings into a box (a run's, an integration's): the mode, the user's
 * paths and the network; `clients` are what the run may start (none for an integration's gates).
 */
export function boxRequestOf(
  settings: BoxSettings,
  env: NodeJS.ProcessEnv,
  clients: { stateFolders: readonly string[]; apiHosts: readonly string[]; programs: readonly string[] },
  warn?: (line: string) => void,
): Omit<BoxRequest, 'root'> {
  return {
    mode: settings.box,
    env,
    clientState: clients.stateFolders,
    extras: { write: settings.boxWrite, readOnly: settings.boxReadOnly, hidden: settings.boxHide },
    sandboxed: settings.sandbox !== false,
    programs: clients.programs,
    network: networkOf(settings, clients.apiHosts, warn),
  };
}
