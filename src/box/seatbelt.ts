import type { PlacedMount } from './bubblewrap.js';

/** A path as a Seatbelt string literal. */
function quoted(path: string): string {
  return `"${path.replace(/[\\"]/g, (character) => `\\${character}`)}"`;
}

/**
 * The Seatbelt profile (`sandbox-exec -p`) for the mounts: everything allowed but writing, then each
 * mount in order, parents first, so that a later, deeper rule wins as a deeper mount does under
 * bubblewrap. Seatbelt decides by path, not by mount, so each writable mount (the guards included)
 * gets a rule of its own: the folder itself may not be renamed or removed, what lies in it may be
 * written. The devices a program writes to every day stay writable.
 */
export function seatbeltProfile(mounts: readonly PlacedMount[]): string {
  const lines = [
    '(version 1)',
    '(allow default)',
    '(deny file-write*)',
    '(allow file-write* (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (regex #"^/dev/fd/") (regex #"^/dev/tty"))',
  ];
  for (const { path, access } of mounts) {
    // Seatbelt cannot put an empty folder in a path's place; its shared temporary folders stay as they are.
    if (access === 'private') continue;
    if (access === 'write')
      lines.push(`(allow file-write* (subpath ${quoted(path)}))`, `(deny file-write-unlink (literal ${quoted(path)}))`);
    else if (access === 'read') lines.push(`(deny file-write* (subpath ${quoted(path)}))`);
    else lines.push(`(deny file-read* file-write* (subpath ${quoted(path)}))`);
  }
  return `${lines.join('\n')}\n`;
}
