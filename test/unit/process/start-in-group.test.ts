import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startInGroup } from '../../../src/process/start-in-group.js';

const here = { cwd: process.cwd(), env: process.env };

describe('startInGroup', () => {
  it('tells the exit code once the program ended, and never rejects', async () => {
    const { child, ended } = startInGroup('sh', ['-c', 'exit 3'], { ...here, stdio: 'ignore' });
    expect(child?.pid).toBeGreaterThan(0);
    expect(await ended).toEqual({ exitCode: 3, signal: undefined, error: undefined });
  });

  it('starts the program as the leader of a process group of its own', async () => {
    const { child, ended } = startInGroup('sh', ['-c', 'read line'], { ...here, stdio: ['pipe', 'ignore', 'ignore'] });
    const pid = child!.pid!;
    // /proc/PID/stat: the fifth field is the process group.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const group = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
    child!.stdin!.end('\n');
    await ended;
    expect(group).toBe(pid);
  });

  it('says why a program could not start, as a value', async () => {
    const { child, ended } = startInGroup('/nonexistent/program', [], { ...here, stdio: 'ignore' });
    expect(child?.pid).toBeUndefined();
    const exit = await ended;
    expect(exit.exitCode).toBeUndefined();
    expect(exit.error?.code).toBe('ENOENT');
  });

  it('takes an argument spawn refuses (a NUL byte) as a start that failed', async () => {
    const { child, ended } = startInGroup('sh', ['a\0b'], { ...here, stdio: 'ignore' });
    expect(child).toBeUndefined();
    expect((await ended).error).toBeDefined();
  });
});
