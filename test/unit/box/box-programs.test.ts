import { describe, expect, it } from 'vitest';
import { bubblewrapArgs } from '../../../src/box/bubblewrap.js';
import { seatbeltProfile } from '../../../src/box/seatbelt.js';

const mounts = [
  { path: '/r', access: 'write', folder: true },
  { path: '/r/.git/config', access: 'read', folder: false },
  { path: '/h/.ssh', access: 'hidden', folder: true },
  { path: '/h/.netrc', access: 'hidden', folder: false },
] as const;

describe('bubblewrap', () => {
  it('makes the whole system read-only, then lays each mount over it, and ends with the command', () => {
    const args = bubblewrapArgs(mounts, { tmp: '/t/box', cwd: '/r' });
    expect(args.slice(0, 5)).toEqual(['--new-session', '--die-with-parent', '--unshare-pid', '--cap-drop', 'ALL']);
    const joined = args.join(' ');
    expect(joined).toContain('--ro-bind / / --dev /dev --proc /proc');
    expect(joined).toContain('--bind /r /r --ro-bind /r/.git/config /r/.git/config');
    expect(joined).toContain('--tmpfs /h/.ssh --remount-ro /h/.ssh');
    expect(joined).toContain('--ro-bind /dev/null /h/.netrc');
    expect(args.slice(-3)).toEqual(['--chdir', '/r', '--']);
    expect(joined).toContain('--setenv TMPDIR /t/box --setenv npm_config_cache /t/box/npm');
    expect(joined).toContain('--unsetenv SSH_AUTH_SOCK');
    expect(args).not.toContain('--unshare-net');
  });

  it('in allow-list mode gives the box a network of its own and points every proxy variable at the bridge', () => {
    const args = bubblewrapArgs(mounts, { tmp: '/t/box', cwd: '/r', allowList: true });
    expect(args.slice(0, 6)).toEqual([
      '--new-session',
      '--die-with-parent',
      '--unshare-pid',
      '--cap-drop',
      'ALL',
      '--unshare-net',
    ]);
    const joined = args.join(' ');
    expect(joined).toContain('--setenv HTTPS_PROXY http://127.0.0.1:3128');
    expect(joined).toContain('--setenv http_proxy http://127.0.0.1:3128');
    expect(joined).toContain('--unsetenv NO_PROXY --unsetenv no_proxy');
  });
});

describe('seatbelt', () => {
  it('denies every write, then allows and denies each mount in order; a writable folder cannot itself be renamed', () => {
    const profile = seatbeltProfile(mounts);
    const lines = profile.trim().split('\n');
    expect(lines.slice(0, 3)).toEqual(['(version 1)', '(allow default)', '(deny file-write*)']);
    const allow = lines.indexOf('(allow file-write* (subpath "/r"))');
    expect(allow).toBeGreaterThan(2);
    expect(lines[allow + 1]).toBe('(deny file-write-unlink (literal "/r"))');
    expect(lines.indexOf('(deny file-write* (subpath "/r/.git/config"))')).toBeGreaterThan(allow);
    expect(profile).toContain('(deny file-read* file-write* (subpath "/h/.ssh"))');
  });

  it('quotes a path so that it cannot end its string', () => {
    const profile = seatbeltProfile([{ path: '/r/a"b\\c', access: 'write', folder: true }]);
    expect(profile).toContain('(subpath "/r/a\\"b\\\\c")');
  });
});
