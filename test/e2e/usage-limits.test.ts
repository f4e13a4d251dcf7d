import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, runRalph, waitFor } from '../helpers/e2e.js';

/** The client's synthetic error message, as a usage limit ends a stream-json call (see /work/shared/claude-cli.md). */
const limitedCall = (text: string, status = 429) => ({
  events: [
    {
      type: 'assistant',
      message: { model: '<synthetic>', role: 'assistant', content: [{ type: 'text', text }] },
      error: 'rate_limit',
      is_api_error_message: true,
    },
  ],
  exit: 1,
  result: { is_error: true, api_error_status: status, result: text },
});

describe('ralph run: usage limits no wait lifts', () => {
  it.each([
    ["You've hit your org's monthly usage limit", 'monthly_cap', /monthly usage or spend cap/],
    ['Your usage allocation has been disabled by your admin', 'allocation_disabled', /ask your organisation's admin/],
    ["You're out of usage credits. Switch to another model to keep working.", 'out_of_credits', /add credits/],
    [
      'You have reached your specified API usage limits. You will regain access on 2099-04-01 at 00:00 UTC.',
      'monthly_cap',
      /resets 2099-04-01T00:00:00.000Z/,
    ],
  ])('%s: stops after one iteration with usage_limit, whatever --on-usage-limit says', async (text, why, advice) => {
    const repo = await makeRepo();
    await repo.steps([
      limitedCall(text, why === 'monthly_cap' && text.startsWith('You have') ? 400 : 429),
      { implement: true, completeWhenDone: true },
    ]);
    const result = await runRalph(repo, ['run', '--on-usage-limit', 'wait'], { env: { CI: '' } });
    expect(result.code).toBe(1);
    expect(
      repo
        .csvRows()
        .slice(1)
        .map((row) => row[8]),
    ).toEqual(['usage_limit']);
    const lastRun = repo.lastRun() as { reason: string; detail: string; resetSource: string };
    expect(lastRun).toMatchObject({ reason: 'usage_limit', resetSource: text.includes('2099') ? 'dated' : 'backoff' });
    expect(lastRun.detail).toContain(text.slice(0, 30));
    expect(lastRun.detail).toMatch(advice);
    expect(result.stdout).toMatch(advice);
  });
});

describe('ralph run: where a limit is read', () => {
  it('reads a limit from a plain stdout line in stream-json mode, and names the reset evidence', async () => {
    const repo = await makeRepo();
    await repo.steps([{ events: ['Claude AI usage limit reached|1751234400'], exit: 1, result: false }]);
    const result = await runRalph(repo, ['run'], { env: { CI: 'true' } });
    expect(result.code).toBe(1);
    expect(repo.lastRun()).toMatchObject({
      reason: 'usage_limit',
      resetsAt: '2025-06-29T22:00:00.000Z',
      resetSource: 'epoch',
    });
    expect((repo.lastRun() as { detail: string }).detail).toContain('--on-usage-limit stop');
  });

  it('labels server-side throttling "rate limited", counts it as an agent failure, and says "failed once"', async () => {
    const repo = await makeRepo();
    await repo.steps([
      limitedCall('API Error: Server is temporarily limiting requests (not your usage limit) · Rate limited'),
    ]);
    const result = await runRalph(repo, ['run', '--max-agent-failures', '1'], { env: { CI: '' } });
    expect(result.code).toBe(4);
    expect(repo.csvRows()[1]?.[8]).toBe('agent_error');
    expect(result.stdout).toContain('rate limited');
    expect(result.stdout).not.toMatch(/usage limit:/);
    expect(repo.lastRun()).toMatchObject({ reason: 'agent_failures' });
    expect((repo.lastRun() as { detail: string }).detail).toMatch(/^the agent failed once \(rate limited/);
  });
});

describe('ralph run: --max-usage', () => {
  const warning = (utilization: number, resetsAt: number) => ({
    type: 'rate_limit_event',
    rate_limit_info: {
      status: 'allowed_warning',
      resetsAt,
      rateLimitType: 'five_hour',
      utilization,
      isUsingOverage: false,
    },
  });

  it('after an iteration that reports 92 % of a window, stops under --on-usage-limit stop, naming the reported reset', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }, { id: 'US-2' }] });
    const resetsAt = Math.floor(Date.now() / 1000) + 3 * 3600;
    await repo.steps([
      { events: [warning(0.92, resetsAt)], implement: true },
      { implement: true, completeWhenDone: true },
    ]);
    const result = await runRalph(repo, ['run', '--max-usage', '90', '--on-usage-limit', 'stop']);
    expect(result.code).toBe(1);
    expect(
      repo
        .csvRows()
        .slice(1)
        .map((row) => row[8]),
    ).toEqual(['ok']);
    expect(repo.lastRun()).toMatchObject({
      reason: 'usage_limit',
      resetsAt: new Date(resetsAt * 1000).toISOString(),
      resetSource: 'event',
    });
    expect((repo.lastRun() as { detail: string }).detail).toContain('five_hour usage is at 92% (--max-usage 90)');
  });

  // The wait itself is unit-tested through the injected clock (test/unit/loop/run-loop.test.ts): a
  // real one is a minute at least.
  it('with --on-usage-limit wait, stops when the reported reset lies past --max-runtime, and says so', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }, { id: 'US-2' }] });
    const resetsAt = Math.floor(Date.now() / 1000) + 5 * 3600;
    await repo.steps([
      { events: [warning(0.92, resetsAt)], implement: true },
      { implement: true, completeWhenDone: true },
    ]);
    const result = await runRalph(
      repo,
      ['run', '--max-usage', '90', '--on-usage-limit', 'wait', '--max-runtime', '1h'],
      { env: { CI: '' } },
    );
    expect(result.code).toBe(1);
    expect(repo.lastRun()).toMatchObject({ reason: 'usage_limit', resetSource: 'event' });
    expect((repo.lastRun() as { detail: string }).detail).toMatch(/after --max-runtime ends/);
  });

  it('leaves the run alone below the share', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([
      { events: [warning(0.89, Math.floor(Date.now() / 1000) + 3600)], implement: true, completeWhenDone: true },
    ]);
    const result = await runRalph(repo, ['run', '--max-usage', '90']);
    expect(result.code).toBe(0);
  });

  it('shows the latest utilization per window in ralph status while the agent runs', async () => {
    const repo = await makeRepo();
    await repo.steps([{ events: [warning(0.92, Math.floor(Date.now() / 1000) + 3600)], hang: true }]);
    let status = '';
    const result = await runRalph(repo, ['run'], {
      onStdout: (text, child) => {
        if (!text.includes('usage five_hour 92%') || status !== '') return;
        status = 'pending';
        void (async () => {
          await waitFor(() => readFileSync(join(repo.root, 'ralph/.ralph-active'), 'utf8').includes('five_hour'));
          status = (await runRalph(repo, ['status'])).stdout;
          child.kill('SIGINT');
        })();
      },
    });
    expect(result.code).toBe(130);
    expect(status).toMatch(/Loop +running · .* · usage five_hour 92%/);
  });
});
