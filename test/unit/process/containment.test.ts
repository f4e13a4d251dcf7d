import { existsSync, mkdirSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Containment, probeContainment } from '../../../src/process/containment.js';
import { repoHash, runCgroupName } from '../../../src/process/cgroup.js';
import { moveReadiness } from '../../../src/process/move-readiness.js';
import { cgroupHome, cgroupWritable } from '../../helpers/cgroup.js';

// ralph's exit handler ends a scope still running and removes the run's cgroup when a fault ends
// the run without close() (test/e2e/hostile-numbers.test.ts). It listens only while there is
// something to end or remove: a listener left behind would hold every Containment alive.
const exitListeners = () => process.listenerCount('exit');

describe('Containment and ralph’s exit', () => {
  it.skipIf(!cgroupWritable)(
    'listens from the run’s cgroup to close(), which removes it and stops listening',
    async () => {
      const before = exitListeners();
      const containment = new Containment();
      await containment.open(await mkdtemp(join(tmpdir(), 'ralph-containment-')));
      expect(containment.choice.mode).toBe('cgroup');
      expect(exitListeners()).toBe(before + 1);
      const marker = containment.mark('agent-1');
      const stop = containment.started(marker);
      // One listener for the run, however many scopes run.
      expect(exitListeners()).toBe(before + 1);
      stop();
      expect(exitListeners()).toBe(before + 1);
      await containment.close();
      expect(exitListeners()).toBe(before);
      // The scope's cgroup was the run's child: both are gone.
      expect(marker.cgroup?.startsWith((cgroupHome as { dir: string }).dir)).toBe(true);
      expect(existsSync(marker.cgroup!)).toBe(false);
    },
  );

  it('with the marker, listens only while a scope runs', async () => {
    const before = exitListeners();
    const containment = new Containment();
    await containment.open(await mkdtemp(join(tmpdir(), 'ralph-containment-')), { RALPH_CONTAINMENT: 'marker' });
    expect(exitListeners()).toBe(before);
    const stop = containment.started(containment.mark('agent-1'));
    expect(exitListeners()).toBe(before + 1);
    stop();
    expect(exitListeners()).toBe(before);
    await containment.close();
    expect(exitListeners()).toBe(before);
  });
});

describe('the kernel made ready for the first scope', () => {
  afterEach(() => vi.restoreAllMocks());

  it.skipIf(!cgroupWritable)('once the run’s cgroup is made and an earlier run’s emptied, never before', async () => {
    const identity = await mkdtemp(join(tmpdir(), 'ralph-containment-'));
    // An earlier run of the same repository left its cgroup: its rmdir would wait on the move too.
    const leftover = join((cgroupHome as { dir: string }).dir, runCgroupName(repoHash(identity), 'deadbeef0000'));
    mkdirSync(leftover);
    const seen: { made: boolean; leftover: boolean }[] = [];
    const containment = new Containment();
    vi.spyOn(moveReadiness, 'keep').mockImplementation(() => {
      seen.push({ made: containment.choice.mode === 'cgroup', leftover: existsSync(leftover) });
    });
    await containment.open(identity);
    await containment.close();
    expect(seen).toEqual([{ made: true, leftover: false }]);
  });

  it.skipIf(!cgroupWritable)('not for a dry run, which makes the run’s cgroup only to see that it can', async () => {
    const keep = vi.spyOn(moveReadiness, 'keep').mockImplementation(() => undefined);
    const choice = await probeContainment(await mkdtemp(join(tmpdir(), 'ralph-containment-')), {});
    expect(choice.mode).toBe('cgroup');
    expect(keep).not.toHaveBeenCalled();
  });

  it('not at all where the run uses the marker', async () => {
    const keep = vi.spyOn(moveReadiness, 'keep').mockImplementation(() => undefined);
    const containment = new Containment();
    await containment.open(await mkdtemp(join(tmpdir(), 'ralph-containment-')), { RALPH_CONTAINMENT: 'marker' });
    containment.started(containment.mark('agent-1'))();
    await containment.close();
    expect(keep).not.toHaveBeenCalled();
  });
});
