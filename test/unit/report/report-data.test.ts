import { describe, expect, it } from 'vitest';
import { parseSummaryCsv, shapeReport } from '../../../src/report/report-data.js';
import type { Story } from '../../../src/domain/tasks.js';

const HEADER =
  'iteration,mode,duration_seconds,commit_hash,stories_complete,stories_total,stuck_count,timestamp,outcome,agent_exit_code,cost_usd,input_tokens,output_tokens,num_turns,tool_calls';

function row(iteration: number, complete: number, extra: Partial<Record<string, string>> = {}): string {
  const fields = {
    mode: 'implement',
    duration: '10',
    commit: 'abc123',
    total: '2',
    stuck: '0',
    outcome: 'ok',
    cost: '0.5',
    input: '100',
    output: '20',
    ...extra,
  };
  return `${iteration},${fields.mode},${fields.duration},${fields.commit},${complete},${fields.total},${fields.stuck},2026-01-01T00:00:00Z,${fields.outcome},0,${fields.cost},${fields.input},${fields.output},3,4`;
}

/** These stories carry no review status: read as a run with --skip-review counted them. */
const NO_REVIEW = { review: false };

const stories: Story[] = [
  { id: 'US-001', title: 'first', priority: 1, passes: true },
  { id: 'US-002', title: 'second', priority: 2, passes: true },
  { id: 'US-003', title: 'third', priority: 3, passes: false },
];

describe('shapeReport', () => {
  it('says nothing ran for an empty CSV, or one with only a header', () => {
    for (const text of ['', `${HEADER}\n`]) {
      const data = shapeReport(text, stories, NO_REVIEW);
      expect(data.iterations).toEqual([]);
      expect(data.runs).toBe(0);
      expect(data.totals.costUsd).toBeNull();
    }
  });

  it('reads columns by header name, whatever their order, and keeps appended ones out of the way', () => {
    const text = 'stories_complete,iteration,new_column,duration_seconds\n1,7,x,12\n';
    const [iteration] = shapeReport(text, [], NO_REVIEW).iterations;
    expect(iteration).toMatchObject({ iteration: 7, storiesComplete: 1, durationSeconds: 12, costUsd: null });
  });

  it('marks what an older CSV with fewer columns did not record', () => {
    const text =
      'iteration,mode,duration_seconds,commit_hash,stories_complete,stories_total,stuck_count,timestamp\n1,implement,5,,0,2,0,t\n';
    const data = shapeReport(text, stories, NO_REVIEW);
    expect(data.recorded).toEqual({ cost: false, tokens: false, outcome: false, stories: true, story: false });
    expect(data.iterations[0]!.outcome).toBeNull();
    expect(data.receipts.every((receipt) => receipt.costUsd === null)).toBe(true);
  });

  it('keeps a text-mode run without cost at null rather than zero', () => {
    const data = shapeReport(`${HEADER}\n${row(1, 0, { cost: '', input: '', output: '' })}\n`, stories, NO_REVIEW);
    expect(data.totals).toMatchObject({ costUsd: null, tokens: null, agentSeconds: 10 });
  });

  it('finds run boundaries where the numbering does not rise', () => {
    const text = [HEADER, row(1, 0), row(2, 1), row(1, 1), row(2, 2)].join('\n');
    const data = shapeReport(text, stories, NO_REVIEW);
    expect(data.iterations.map((iteration) => iteration.run)).toEqual([0, 0, 1, 1]);
    expect(data.runs).toBe(2);
  });

  it('sums receipts per story across a resume, and they add up to the totals', () => {
    // Run 1: two iterations on US-001, it completes; one on US-002. Resume: US-002 completes, one more open.
    const text = [
      HEADER,
      row(1, 0),
      row(2, 1, { cost: '1.25' }),
      row(3, 1, { mode: 'review' }),
      row(4, 1, { mode: 'review-fix', outcome: 'agent_error', commit: '' }),
      row(5, 2),
      row(6, 2, { stuck: '1' }),
      row(7, 2, { stuck: '2' }),
    ].join('\n');
    const data = shapeReport(text, stories, NO_REVIEW);
    const [first, second, third] = data.receipts;
    expect(first).toMatchObject({ id: 'US-001', iterations: 2, agentSeconds: 20, costUsd: 1.75, tokens: 240 });
    expect(second).toMatchObject({ id: 'US-002', iterations: 3, reviews: 1, sendBacks: 1, costUsd: 1.5 });
    expect(third).toMatchObject({ id: 'US-003', iterations: 2 });
    const receiptCost = data.receipts.reduce((sum, receipt) => sum + (receipt.costUsd ?? 0), 0);
    expect(receiptCost).toBeCloseTo(data.totals.costUsd!);
    expect(data.receipts.reduce((sum, receipt) => sum + receipt.iterations, 0)).toBe(7);
    expect(data.totals.commits).toBe(6);
    expect(data.stuckStreaks).toEqual([{ first: 6, last: 7, peak: 2 }]);
  });

  it('with the review cycle on, charges a story that passes but waits for its review, not nobody', () => {
    // US-001 approved; US-002 implemented (passes) but its review has not run: the run counted 1 of 2.
    const reviewed: Story[] = [
      { id: 'US-001', title: 'first', priority: 1, passes: true, reviewStatus: 'approved' },
      { id: 'US-002', title: 'second', priority: 2, passes: true, reviewStatus: 'pending' },
    ];
    const text = [HEADER, row(1, 0), row(2, 1, { mode: 'review' }), row(3, 1, { cost: '0.25' })].join('\n');
    const data = shapeReport(text, reviewed, { review: true });
    expect(data.iterations.map((iteration) => iteration.story)).toEqual(['US-001', 'US-001', 'US-002']);
    expect(data.receipts.find((receipt) => receipt.id === 'US-002')).toMatchObject({ iterations: 1, costUsd: 0.25 });
    const receiptCost = data.receipts.reduce((sum, receipt) => sum + (receipt.costUsd ?? 0), 0);
    expect(receiptCost).toBeCloseTo(data.totals.costUsd!);
    // Read without the review cycle, the same list has both stories complete and nothing open.
    expect(shapeReport(text, reviewed, NO_REVIEW).iterations.at(-1)!.story).toBeNull();
  });

  it('parses quoted fields', () => {
    expect(parseSummaryCsv('a,b\n"x, ""y""",2\n').rows).toEqual([{ a: 'x, "y"', b: '2' }]);
  });
});
