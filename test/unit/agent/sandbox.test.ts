import { describe, expect, it } from 'vitest';
import { installInsideWarning, sandboxExecCommand } from '../../../src/agent/sandbox.js';

describe('installInsideWarning', () => {
  it.each([
    ['a dev dependency', '/work/app', '/work/app/node_modules/ralph-loop-cli', 'node_modules/ralph-loop-cli'],
    ["ralph's own repository", '/work/ralph', '/work/ralph', '.'],
    ['a folder whose name starts with two dots', '/work/app', '/work/app/..tools/ralph', '..tools/ralph'],
  ])('warns of %s, naming the place', (_case, root, install, shown) => {
    expect(installInsideWarning(root, install)).toContain(`the sandbox mounts (${shown})`);
  });

  it.each([
    ['a global install', '/work/app', '/usr/lib/node_modules/ralph-loop-cli'],
    ['a sibling folder', '/work/app', '/work/app-tools/ralph'],
    ['the parent of the repository', '/work/app', '/work'],
  ])('says nothing of %s', (_case, root, install) => {
    expect(installInsideWarning(root, install)).toBeUndefined();
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
