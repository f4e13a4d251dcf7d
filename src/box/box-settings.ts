import type { StartingKeys } from '../domain/starting-keys.js';
import type { ResolvedSettings } from '../config/resolve-settings.js';
import { networkOf } from './box-network.js';
import type { BoxRequest } from './box-request.js';

/** What the box takes from the resolved settings. */
type BoxSettings = Pick<
  ResolvedSettings['settings'],
  'box' | 'boxWrite' | 'boxReadOnly' | 'boxHide' | 'boxNetwork' | 'boxAllowHost' | 'sandbox'
>;

/** What the box needs of the clients a run may start (none for an integration's gates). */
export interface ClientBoxing {
  stateFolders: readonly string[];
  programSettings?: readonly string[];
  programKeys?: readonly StartingKeys[];
  apiHosts: readonly string[];
  programs: readonly string[];
}

/**
 * The one reading of the settings into a box (a run's, an integration's): the mode, the user's
 * paths and the network; `clients` are what the run may start (none for an integration's gates).
 */
export function boxRequestOf(
  settings: BoxSettings,
  env: NodeJS.ProcessEnv,
  clients: ClientBoxing,
  warn?: (line: string) => void,
): Omit<BoxRequest, 'root'> {
  return {
    mode: settings.box,
    env,
    clientState: clients.stateFolders,
    clientSettings: clients.programSettings ?? [],
    clientKeys: clients.programKeys ?? [],
    extras: { write: settings.boxWrite, readOnly: settings.boxReadOnly, hidden: settings.boxHide },
    sandboxed: settings.sandbox !== false,
    programs: clients.programs,
    network: networkOf(settings, clients.apiHosts, warn),
  };
}
