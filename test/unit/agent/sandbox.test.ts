import { describe, expect, it } from 'vitest';
import { sandboxExecCommand, sandboxReachWarning } from '../../../src/agent/sandbox.js';

describe('sandboxReachWarning', () => {
  it.each([
    [
      'a dev dependency',
      '/work/app/node_modules/ralph-loop-cli',
      'ralph itself (node_modules/ralph-loop-cli) is inside',
    ],
    ["ralph's own repository", '/work/app', 'ralph itself (.) is inside'],
    ['a folder whose name starts with two dots', '/work/app/..tools/ralph', 'ralph itself (..tools/ralph) is inside'],
  ])('warns of %s, naming the place', (_case, install, said) => {
    expect(sandboxReachWarning('/work/app', install, ['/usr/bin'])).toContain(said);
  });

  it.each([
    ['a global install', '/usr/lib/node_modules/ralph-loop-cli'],
    ['a sibling folder', '/work/app-tools/ralph'],
    ['the parent of the repository', '/work'],
  ])('says nothing of %s', (_case, install) => {
    expect(sandboxReachWarning('/work/app', install, ['/usr/bin', '/work/app-tools/bin', '/work'])).toBeUndefined();
  });

  it('names the folders of PATH inside the repository, once each, beside ralph itself', () => {
    const path = ['/work/app/node_modules/.bin', '/usr/bin', '/work/app/node_modules/.bin', '/work/app/bin'];
    expect(sandboxReachWarning('/work/app', '/usr/lib/node_modules/ralph-loop-cli', path)).toMatch(
      /^PATH's node_modules\/\.bin, bin are inside the repository the sandbox mounts: /,
    );
    expect(sandboxReachWarning('/work/app', '/work/app/node_modules/ralph-loop-cli', path)).toMatch(
      /^ralph itself \(node_modules\/ralph-loop-cli\) and PATH's node_modules\/\.bin, bin are inside/,
    );
  });
});

describe('sandboxExecCommand', () => {
  it('runs the command with sh inside the named sandbox, from the repository', () => {
    expect(sandboxExecCommand('/usr/bin/docker', 'box', '/work/app', 'npm test && echo "ok"')).toEqual({
      file: '/usr/bin/docker',
      args: ['sandbox', 'exec', '--workdir', '/work/app', 'box', 'sh', '-c', 'npm test && echo "ok"'],
    });
  });
});
