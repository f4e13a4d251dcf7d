import { describe, expect, it } from 'vitest';
import { describeSpawnError, findNulByte } from '../../../src/agent/spawn-failure.js';

const errno = (code: string) => Object.assign(new Error(`spawn ${code}`), { code });

describe('findNulByte', () => {
  const command = { file: '/usr/bin/claude', args: ['-p', 'Implement the next story.', '--verbose'] };

  it('names the argument that holds one', () => {
    expect(findNulByte({ ...command, args: ['-p', 'Implement\0 it'] }, {})).toBe(
      'argument 2 of the agent command ("Implement\\u0000 it") contains a NUL byte',
    );
  });

  it('names the variable that holds one', () => {
    expect(findNulByte(command, { PATH: '/bin', API_TOKEN: 'a\0b' })).toBe(
      'agent.env variable API_TOKEN contains a NUL byte',
    );
  });

  it('finds nothing in a clean command', () => {
    expect(findNulByte(command, { PATH: '/bin' })).toBeUndefined();
  });
});

describe('describeSpawnError', () => {
  it('gives E2BIG the sizes, the largest argument, and the way out', () => {
    const command = { file: 'claude', args: ['-p', 'short', '--append-system-prompt', 'x'.repeat(300 * 1024)] };
    expect(describeSpawnError(errno('E2BIG'), command, { HOME: '/root' })).toBe(
      'the agent could not be started: its arguments (300 KiB, the largest 300 KiB: argument 4 ("xxxxxxxxxxxxxxxxxxxxxxxx…")) ' +
        'and environment (11 bytes) are too large for the kernel (E2BIG); move long text out of agent.args or agent.env ' +
        'into a file the agent reads, or pass it on stdin',
    );
  });

  it('names the executable for ENOENT and EACCES', () => {
    const command = { file: '/opt/claude', args: [] };
    expect(describeSpawnError(errno('ENOENT'), command, {})).toBe(
      'the agent could not be started: /opt/claude was not found (ENOENT); check agent.bin and PATH',
    );
    expect(describeSpawnError(errno('EACCES'), command, {})).toMatch(/\/opt\/claude is not executable \(EACCES\)/);
  });

  it('keeps any other error to its first line', () => {
    expect(describeSpawnError(errno('EMFILE'), { file: 'claude', args: [] }, {})).toBe(
      'the agent could not be started: spawn EMFILE (EMFILE)',
    );
  });
});
