import { describe, expect, it } from 'vitest';
import { installArgument, isGitSpec } from '../../../src/init/install-spec.js';

describe('isGitSpec: the specs npm reads as git (npm-package-arg)', () => {
  it.each([
    'github:you/ralph#v1.2.0',
    'git+https://github.com/you/ralph.git#v1.2.0',
    'git+file:///srv/ralph#v1.2.0',
    'git://example.com/ralph.git',
    'gitlab:you/ralph',
    'https://github.com/you/ralph.git#v1.2.0',
    'you/ralph#v1.2.0',
  ])('%s is git', (spec) => expect(isGitSpec(spec)).toBe(true));

  it.each([
    'ralph-loop-cli@1.2.0',
    '@scope/ralph@1.2.0',
    './ralph/vendor/ralph-loop-cli-1.2.0.tgz',
    'vendor/ralph.tgz',
    'https://example.com/ralph-loop-cli-1.2.0.tgz',
    '/abs/ralph.tgz',
  ])('%s is not git', (spec) => expect(isGitSpec(spec)).toBe(false));
});

describe('installArgument', () => {
  it('installs a registry spec or a tarball as it is', () => {
    expect(installArgument('ralph-loop-cli@1.2.0')).toBe('ralph-loop-cli@1.2.0');
    expect(installArgument("./ralph's.tgz")).toBe(`'./ralph'\\''s.tgz'`);
  });

  it('packs a git spec into $RUNNER_TEMP first, since npm cannot build one under -g (npm/cli#8440)', () => {
    expect(installArgument('github:you/ralph#v1.2.0')).toBe(
      '"$RUNNER_TEMP/$(npm pack --silent --pack-destination "$RUNNER_TEMP" github:you/ralph#v1.2.0 | tail -n 1)"',
    );
  });
});
