import type { ResolvedSettings } from '../config/resolve-settings.js';
import type { BoxNetwork } from './open-box.js';

/** The box's network from the settings: open, or the clients' hosts and the user's, each refusal said once. */
export function networkOf(
  settings: Pick<ResolvedSettings['settings'], 'boxNetwork' | 'boxAllowHost'>,
  clientHosts: readonly string[],
  warn: (line: string) => void = () => undefined,
): BoxNetwork {
  if (settings.boxNetwork === 'open') return { mode: 'open' };
  const said = new Set<string>();
  return {
    mode: 'allow-list',
    hosts: [...new Set([...clientHosts, ...settings.boxAllowHost])],
    onRefused: (target) => {
      if (said.has(target)) return;
      said.add(target);
      warn(`the box refused a connection to ${target}: not on the allow-list (--box-allow-host ${target})`);
    },
  };
}
