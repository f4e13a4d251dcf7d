import { join } from 'node:path';
import { CACHE_VARIABLES, SOCKET_VARIABLES, type Access } from './box-policy.js';
import { BRIDGE_PORT, PROXY_VARIABLES } from './network-bridge.js';

/** A mount of the box whose path exists, with what it is: a folder is hidden by an empty one, a file by /dev/null. */
export interface PlacedMount {
  path: string;
  access: Access;
  folder: boolean;
}

/**
 * bwrap's arguments for the mounts, in their order, before the command: the whole system
 * read-only, a fresh /dev and /proc, then each mount over it. `--unshare-pid` keeps the agent from
 * seeing or signalling ralph and anything else outside; `--new-session` takes away the terminal,
 * whose input it could otherwise fake (TIOCSTI); `--die-with-parent` ends it all if ralph dies.
 * The network stays the host's (the client needs its API, the gates their registries), unless
 * `allowList`: then the box has a network of its own with nothing but its loopback, where the bridge
 * listens, and every client's proxy variables point there.
 */
export function bubblewrapArgs(
  mounts: readonly PlacedMount[],
  { tmp, cwd, allowList = false }: { tmp: string; cwd: string; allowList?: boolean },
): string[] {
  // --cap-drop ALL: ralph as root would otherwise give the box every capability, and with them umount.
  const args = ['--new-session', '--die-with-parent', '--unshare-pid', '--cap-drop', 'ALL'];
  if (allowList) args.push('--unshare-net');
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc');
  for (const { path, access, folder } of mounts) {
    if (access === 'write') args.push('--bind', path, path);
    else if (access === 'read') args.push('--ro-bind', path, path);
    else if (access === 'private') args.push('--tmpfs', path);
    else if (folder) args.push('--tmpfs', path, '--remount-ro', path);
    else args.push('--ro-bind', '/dev/null', path);
  }
  args.push('--setenv', 'TMPDIR', tmp);
  for (const [name, folder] of Object.entries(CACHE_VARIABLES)) args.push('--setenv', name, join(tmp, folder));
  for (const name of SOCKET_VARIABLES) args.push('--unsetenv', name);
  if (allowList) {
    for (const name of PROXY_VARIABLES) args.push('--setenv', name, `http://127.0.0.1:${BRIDGE_PORT}`);
    args.push('--unsetenv', 'NO_PROXY', '--unsetenv', 'no_proxy');
  }
  args.push('--chdir', cwd, '--');
  return args;
}
