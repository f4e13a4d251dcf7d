import { describe, expect, it } from 'vitest';
import type { Wait } from '../../../src/loop/port-data.js';
import { runLoop } from '../../../src/loop/run-loop.js';
import { fakePorts, loopSettings, taskList } from './fakes.js';

const lastOneLeft = taskList(['US-1', true], ['US-2', false]);

/** An account limit another loop met, lifting at `until`: held while the fake clock is before it. */
function accountHeldUntil(until: number) {
  const asked: number[] = [];
  return {
    asked,
    account: {
      held(now: number): Wait | undefined {
        asked.push(now);
        return now < until ? { until, message: 'usage limit (met by api-auth)', why: 'usage_limit' } : undefined;
      },
    },
  };
}

describe('runLoop under the account usage limit another loop met', () => {
  it('waits for the same reset before its first call, without spending one to learn it', async () => {
    const fake = fakePorts(lastOneLeft, [{ commit: true, pass: ['US-2'], signals: { complete: true } }]);
    const start = fake.ports.clock.now();
    const hold = accountHeldUntil(start + 30 * 60_000);
    const result = await runLoop(loopSettings(), { ...fake.ports, account: hold.account }, lastOneLeft);
    expect(result.termination.reason).toBe('complete');
    expect(fake.sleeps).toEqual([30 * 60_000]);
    expect(fake.events).toContain(`wait until ${start + 30 * 60_000}`);
    // One agent call in all: the one after the reset.
    expect(fake.rows).toHaveLength(1);
    expect(fake.rows[0]!.outcome).toBe('ok');
  });

  it('stops with the limit, without a call, under --on-usage-limit stop', async () => {
    const fake = fakePorts(lastOneLeft, []);
    const hold = accountHeldUntil(fake.ports.clock.now() + 60_000);
    const result = await runLoop(
      loopSettings({ onUsageLimit: 'stop' }),
      { ...fake.ports, account: hold.account },
      lastOneLeft,
    );
    expect(result.termination).toMatchObject({ reason: 'usage_limit', why: 'stop_requested' });
    expect(fake.rows).toEqual([]);
  });

  it('stops when the reset lies past --max-runtime', async () => {
    const fake = fakePorts(lastOneLeft, []);
    const hold = accountHeldUntil(fake.ports.clock.now() + 10 * 3600_000);
    const result = await runLoop(loopSettings(), { ...fake.ports, account: hold.account }, lastOneLeft);
    expect(result.termination).toMatchObject({ reason: 'usage_limit', why: 'beyond_max_runtime' });
    expect(fake.sleeps).toEqual([]);
  });
});
