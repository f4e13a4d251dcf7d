import { describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cgroupHome, cgroupWritable } from '../helpers/cgroup.js';
import { isAlive, lockNow, makeRepo, PACKAGE_ROOT, runRalph, waitFor } from '../helpers/e2e.js';

const rejected = (resetsAt: number) => ({
  type: 'rate_limit_event',
  rate_limit_info: { status: 'rejected', resetsAt, rateLimitType: 'five_hour' },
});

describe('numbers the agent reports that are not numbers', () => {
  it('a resetsAt of 1e20 is ignored with a warning: the run waits its own backoff, and records its ending', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([{ events: [rejected(1e20)], exit: 1, result: { is_error: true, api_error_status: 429 } }]);
    const result = await runRalph(repo, ['run', '--on-usage-limit', 'stop']);
    expect(result.stderr).not.toContain('internal error');
    expect(result.code).toBe(1);
    expect(repo.lastRun()).toMatchObject({ reason: 'usage_limit', resetSource: 'backoff' });
    expect(result.stdout).toContain('warning: the agent reported a usage limit reset at');
  });

  it('a negative or infinite total_cost_usd is not summed: --max-cost still trips on the real costs', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }, { id: 'US-2' }, { id: 'US-3' }, { id: 'US-4' }] });
    await repo.steps([
      { implement: true, result: { total_cost_usd: -1000 } },
      { implement: true, result: { total_cost_usd: 0.6 } },
      { implement: true, result: { total_cost_usd: 0.6 } },
      { implement: true, result: { total_cost_usd: 0.6 } },
    ]);
    const result = await runRalph(repo, ['run', '--max-cost', '1']);
    expect(result.stdout).toContain('warning: the agent reported total_cost_usd -1000');
    expect(repo.lastRun()).toMatchObject({ reason: 'max_cost', costUsd: 1.2 });
    expect(repo.calls()).toBe(3);
  });
});

describe('an internal error no code path catches', () => {
  it('still writes last-run.json and internal-error.log, exits 70, and leaves no agent behind', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const agentPid = join(repo.root, 'agent.pid');
    await repo.steps([{ shell: [`echo $PPID > ${agentPid}`, 'touch ralph/crash-now'], say: 'working\n', hang: true }]);
    const preload = join(PACKAGE_ROOT, 'test/fixtures/crash-on-demand.mjs');
    const result = await runRalph(repo, ['run'], { env: { NODE_OPTIONS: `--import=${preload}` } });
    expect(result.code).toBe(70);
    expect(result.stderr).toContain('ralph: internal error: Error: forced internal error — a bug in ralph');
    expect(repo.lastRun()).toMatchObject({
      reason: 'internal_error',
      exitCode: 70,
      detail: 'Error: forced internal error',
    });
    expect(repo.read('ralph/logs/internal-error.log')).toContain('forced internal error');
    await waitFor(() => !isAlive(Number(repo.read('agent.pid'))));
    // Nor its cgroup: a repository deleted before its next run would leave it for good. The lock,
    // left for the next run to take over, names the run whose cgroup it was.
    if (cgroupWritable && 'dir' in cgroupHome) {
      const { marker } = lockNow(repo.read('ralph/.ralph-active')) as { marker: string };
      expect(marker).toMatch(/^[0-9a-f]{12}$/);
      expect(readdirSync(cgroupHome.dir).filter((name) => name.endsWith(`-${marker}`))).toEqual([]);
    }
  });
});
