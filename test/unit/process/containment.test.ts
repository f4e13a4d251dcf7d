import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Containment, prepareForScopes } from '../../../src/process/containment.js';
import { moveReadiness } from '../../../src/process/move-readiness.js';
import { hasProc } from '../../../src/process/proc.js';
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

describe('prepareForScopes', () => {
  afterEach(() => vi.restoreAllMocks());

  it.skipIf(!hasProc())('gets the kernel ready for the start of a run, at once', () => {
    const keep = vi.spyOn(moveReadiness, 'keep').mockImplementation(() => undefined);
    prepareForScopes({});
    expect(keep).toHaveBeenCalledTimes(1);
    expect(keep.mock.calls[0]![0]).toBeGreaterThanOrEqual(100);
  });

  it('does nothing where the run will use the marker', () => {
    const keep = vi.spyOn(moveReadiness, 'keep').mockImplementation(() => undefined);
    prepareForScopes({ RALPH_CONTAINMENT: 'marker' });
    expect(keep).not.toHaveBeenCalled();
  });
});
