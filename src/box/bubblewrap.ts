import type { Access } from './box-policy.js';

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
 * The network stays the host's: the client needs its API, the gates their registries.
 */
export function bubblewrapArgs(mounts: readonly PlacedMount[], tmp: string, cwd: string): string[] {
  const args = ['--new-session', '--die-with-parent', '--unshare-pid'];
  args.push('--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc');
  for (const { path, access, folder } of mounts) {
    if (access === 'write') args.push('--bind', path, path);
    else if (access === 'read') args.push('--ro-bind', path, path);
    else if (folder) args.push('--tmpfs', path, '--remount-ro', path);
    else args.push('--ro-bind', '/dev/null', path);
  }
  args.push('--setenv', 'TMPDIR', tmp, '--chdir', cwd, '--');
  return args;
}
