import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, runRalph, type Repo } from '../helpers/e2e.js';
import { parseSummaryCsv } from '../../src/report/report-data.js';

/** `ralph status --json`, parsed. */
async function statusJson(repo: Repo): Promise<Record<string, any>> {
  const result = await runRalph(repo, ['status', '--json']);
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Record<string, any>;
}

/** Four stories; a run of two iterations completes the first two, at the costs given. */
async function twoDone(costs: [number | null, number | null]): Promise<Repo> {
  const repo = await makeRepo({ stories: [{ id: 'US-1' }, { id: 'US-2' }, { id: 'US-3' }, { id: 'US-4' }] });
  await repo.steps(costs.map((cost) => ({ implement: true, result: { total_cost_usd: cost } })));
  const run = await runRalph(repo, ['run', '--max-iterations', '2']);
  expect(run.code).toBe(1);
  return repo;
}

describe('the forecast', () => {
  it('after two stories done: status --json holds the measured cost per story times the stories left', async () => {
    const repo = await twoDone([0.3, 0.5]);
    const csv = parseSummaryCsv(await readFile(join(repo.root, 'ralph/logs/summary.csv'), 'utf8'));
    expect(csv.header).toContain('story');
    expect(csv.rows.map((row) => row.story)).toEqual(['US-1', 'US-2']);

    const { forecast } = await statusJson(repo);
    const measuredPerStory = (0.3 + 0.5) / 2;
    expect(forecast).toMatchObject({
      state: 'measured',
      storiesLeft: 2,
      measured: { stories: 2, iterations: 2, runs: 1 },
      remaining: { iterations: 2 },
    });
    expect(forecast.perStory.costUsd).toBeCloseTo(measuredPerStory, 9);
    expect(forecast.remaining.costUsd).toBeCloseTo(measuredPerStory * 2, 9);
    expect(Date.parse(forecast.finishesAt)).toBeGreaterThan(0);
    expect(forecast.note).toBeUndefined();

    const text = await runRalph(repo, ['status']);
    expect(text.stdout).toMatch(
      /forecast: 2 stories left at \$0\.40, 1 iteration, \d+s a story \(measured: 2 stories in 2 iterations over 1 run\): about \$0\.80, 2 iterations, done around/,
    );
  });

  it('says at the start (and in the dry run) when --max-cost and --max-iterations will not suffice, in one line', async () => {
    const repo = await twoDone([0.3, 0.5]);
    const dry = await runRalph(repo, ['run', '--dry-run', '--max-iterations', '1', '--max-cost', '0.5']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/forecast +2 stories left at \$0\.40/);
    expect(dry.stdout).toMatch(
      /warning +limits +--max-iterations 1 \(about 2 needed\) and --max-cost \$0\.50 \(about \$0\.80 needed\) are not enough for the 2 stories left/,
    );

    await repo.steps([{ implement: true, result: { total_cost_usd: 0.4 } }]);
    const run = await runRalph(repo, ['run', '--max-iterations', '1']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('forecast: 2 stories left at $0.40');
    const warnings = run.stdout.split('\n').filter((line) => line.includes('not enough for the'));
    expect(warnings).toEqual([
      'warning: --max-iterations 1 (about 2 needed) is not enough for the 2 stories left at the pace measured so far: the run will likely stop before the list is done',
    ]);
    // The second run adds to the measure: three stories, three iterations, two runs.
    const { forecast } = await statusJson(repo);
    expect(forecast).toMatchObject({ storiesLeft: 1, measured: { stories: 3, iterations: 3, runs: 2 } });
    expect(forecast.remaining.costUsd).toBeCloseTo(1.2 / 3, 9);
  });

  it('with no story completed yet: no measure, no number made up', async () => {
    const repo = await makeRepo();
    await repo.steps([{ say: 'thinking' }]);
    expect((await runRalph(repo, ['run', '--max-iterations', '1'])).code).toBe(1);
    const { forecast } = await statusJson(repo);
    expect(forecast).toEqual({
      state: 'unmeasured',
      storiesLeft: 2,
      note: 'no measure yet: no story has been completed in any run of this task list',
      windows: [],
    });
  });

  it('with a client that reports no cost: iterations and time only, and says so', async () => {
    const repo = await twoDone([null, null]);
    const { forecast } = await statusJson(repo);
    expect(forecast).toMatchObject({ state: 'measured', storiesLeft: 2, remaining: { iterations: 2, costUsd: null } });
    expect(forecast.note).toBe('the agent reports no cost: iterations and time only');
    const text = await runRalph(repo, ['status']);
    expect(text.stdout).toContain('(the agent reports no cost: iterations and time only)');
    expect(text.stdout).not.toMatch(/forecast:.*\$/);
  });

  it('is not moved by a summary.csv the agent rewrote: the pace is ralph’s own record', async () => {
    const repo = await twoDone([0.3, 0.5]);
    const path = join(repo.root, 'ralph/logs/summary.csv');
    const text = await readFile(path, 'utf8');
    await repo.write('ralph/logs/summary.csv', text.replace(/,0\.3,|,0\.5,/g, ',900,'));
    const { forecast } = await statusJson(repo);
    expect(forecast.remaining.costUsd).toBeCloseTo(0.8, 9);
  });

  it('starts afresh for a list filed away with ralph archive, even under the same name', async () => {
    const repo = await makeRepo();
    await repo.steps([{ implement: true }, { implement: true, completeWhenDone: true }]);
    expect((await runRalph(repo, ['run'])).code).toBe(0);
    expect((await statusJson(repo)).forecast).toEqual({ state: 'done', storiesLeft: 0 });
    expect((await runRalph(repo, ['archive'])).code).toBe(0);
    const next = { project: 'e2e', stories: [{ id: 'US-9', title: 'Next', priority: 1, passes: false }] };
    await repo.write('ralph/tasks.json', JSON.stringify(next));
    expect((await statusJson(repo)).forecast).toMatchObject({ state: 'unmeasured', storiesLeft: 1 });
  });
});
