import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  createRunCgroup,
  createScopeCgroup,
  emptyCgroup,
  findOwnCgroup,
  inCgroup,
  removeCgroup,
  repoHash,
  runCgroupName,
} from '../../../src/process/cgroup.js';
import { waitFor } from '../../helpers/e2e.js';

const HYBRID = [
  '31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755',
  '32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu',
  '41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw',
].join('\n');
const UNIFIED = '29 23 0:26 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw,nsdelegate';

describe('findOwnCgroup', () => {
  it('finds the hybrid mount (/sys/fs/cgroup/unified) and the 0:: line', () => {
    expect(findOwnCgroup(HYBRID, '4:memory:/x\n0::/\n')).toEqual({ dir: '/sys/fs/cgroup/unified' });
  });

  it('finds a unified hierarchy with optional fields before the separator', () => {
    expect(findOwnCgroup(UNIFIED, '0::/user.slice/user-1000.slice/session-2.scope\n')).toEqual({
      dir: '/sys/fs/cgroup/user.slice/user-1000.slice/session-2.scope',
    });
  });

  it('reads a subtree mount (a cgroup namespace) relative to its root, and unescapes spaces', () => {
    const mount = '50 40 0:30 /docker/abc /sys/fs/my\\040cgroup rw - cgroup2 cgroup2 rw';
    expect(findOwnCgroup(mount, '0::/docker/abc/inner\n')).toEqual({ dir: '/sys/fs/my cgroup/inner' });
  });

  it('says why when there is no cgroup2 mount or no 0:: line', () => {
    expect(findOwnCgroup(HYBRID.split('\n').slice(0, 2).join('\n'), '0::/\n')).toEqual({
      why: 'no cgroup v2 hierarchy is mounted',
    });
    expect(findOwnCgroup(HYBRID, '1:cpu:/\n')).toMatchObject({ why: expect.stringContaining('0:: line') as string });
  });
});

describe('createRunCgroup', () => {
  it('falls back, naming the code, where the parent is no cgroup (no cgroup.procs to write)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ralph-cgroup-'));
    const made = createRunCgroup({ dir }, 'ralph-x-y');
    expect(made).toEqual({ why: `cannot create a cgroup under ${dir}: ENOENT` });
  });

  it('passes on why there is no cgroup home', () => {
    expect(createRunCgroup({ why: 'no cgroup v2 hierarchy is mounted' }, 'n')).toEqual({
      why: 'no cgroup v2 hierarchy is mounted',
    });
  });
});

describe('names and the wrapper', () => {
  it('names a run cgroup by a hash of the repository and the run id', () => {
    expect(repoHash('/a/ralph')).toMatch(/^[0-9a-f]{12}$/);
    expect(repoHash('/a/ralph')).not.toBe(repoHash('/b/ralph'));
    expect(runCgroupName('abc', '123')).toBe('ralph-abc-123');
  });

  it('joins the cgroup before exec: the pid written is the command’s own', () => {
    const { file, args } = inCgroup('/cg/agent-1', '/usr/bin/claude', ['-p', 'a b']);
    expect(file).toBe('/bin/sh');
    expect(args.slice(2)).toEqual(['/cg/agent-1', '/usr/bin/claude', '-p', 'a b']);
    expect(args[1]).toMatch(/^echo \$\$ > "\$0\/cgroup.procs" \|\| exit 126; exec "\$@"$/);
  });
});

/** A run cgroup of this test's own under the process's, or undefined where none can be made here. */
function testCgroup(): string | undefined {
  const made = createRunCgroup(findOwnCgroup(), runCgroupName('test', `${process.pid}${Date.now()}`));
  return 'path' in made ? made.path : undefined;
}

describe('emptyCgroup, in a real cgroup', () => {
  const cgroup = testCgroup();

  it.skipIf(!cgroup)('removes a scope nothing is left in, and names no one', async () => {
    const scope = createScopeCgroup(cgroup!, 'agent-1')!;
    expect(await emptyCgroup(scope)).toEqual([]);
    expect(existsSync(scope)).toBe(false);
  });

  it.skipIf(!cgroup)('an empty scope with a cgroup of its own inside goes too, the inner one first', async () => {
    const scope = createScopeCgroup(cgroup!, 'agent-2')!;
    mkdirSync(join(scope, 'inner'));
    expect(await emptyCgroup(scope)).toEqual([]);
    expect(existsSync(scope)).toBe(false);
  });

  it.skipIf(!cgroup)('ends what is still running in it, and names it', async () => {
    const scope = createScopeCgroup(cgroup!, 'agent-3')!;
    const { file, args } = inCgroup(scope, 'sleep', ['600']);
    const child = spawn(file, args, { stdio: 'ignore' });
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await waitFor(() => readFileSync(join(scope, 'cgroup.procs'), 'utf8').trim() !== '');
    const ended = await emptyCgroup(scope);
    expect(ended.map((member) => member.pid)).toEqual([child.pid]);
    await exited;
    expect(existsSync(scope)).toBe(false);
    await removeCgroup(cgroup!);
  });
});
