import { describe, expect, it } from 'vitest';
import { shapeReport } from '../../../src/report/report-data.js';
import { SUMMARY_COLUMNS } from '../../../src/files/summary-csv.js';
import type { Story } from '../../../src/domain/tasks.js';

const stories: Story[] = [
  { id: 'US-1', title: 'first', priority: 1, passes: true },
  { id: 'US-2', title: 'second', priority: 2, passes: true },
  { id: 'US-3', title: 'third', priority: 3, passes: false },
];
const NO_REVIEW = { review: false };

/** A summary.csv of today's columns: each row given its story cell, cost, duration and tokens. */
function csv(rows: { story: string | undefined; cost: string; seconds: string; complete: number }[]): string {
  const header = SUMMARY_COLUMNS.join(',');
  const lines = rows.map((row, index) => {
    const cells: Record<string, string> = {
      iteration: String(index + 1),
      mode: 'implement',
      duration_seconds: row.seconds,
      stories_complete: String(row.complete),
      stories_total: '3',
      outcome: 'ok',
      cost_usd: row.cost,
      input_tokens: '10',
      output_tokens: '5',
      story: row.story ?? '',
    };
    const fields = SUMMARY_COLUMNS.map((column) => cells[column] ?? '');
    // A row cut short (no story cell at all) is what an interrupted write or an edit leaves.
    return row.story === undefined ? fields.slice(0, -1).join(',') : fields.join(',');
  });
  return `${header}\n${lines.join('\n')}\n`;
}

describe('receipts read from the story column', () => {
  it('charges each row to the story it names, the rest to "unknown", and the receipts add up to the CSV', () => {
    const text = csv([
      // Out of priority order on purpose: an inference by stories_complete would charge these otherwise.
      { story: 'US-2', cost: '0.25', seconds: '10', complete: 0 },
      { story: 'US-1', cost: '0.50', seconds: '20', complete: 1 },
      { story: 'US-2', cost: '0.125', seconds: '5', complete: 2 },
      { story: 'US-9', cost: '1', seconds: '1', complete: 2 },
      { story: '', cost: '2', seconds: '2', complete: 2 },
      { story: undefined, cost: '4', seconds: '4', complete: 2 },
    ]);
    const data = shapeReport(text, stories, NO_REVIEW);
    expect(data.recorded.story).toBe(true);
    const byId = Object.fromEntries(data.receipts.map((receipt) => [receipt.id, receipt]));
    expect(byId['US-1']).toMatchObject({ iterations: 1, costUsd: 0.5, agentSeconds: 20, tokens: 15 });
    expect(byId['US-2']).toMatchObject({ iterations: 2, costUsd: 0.375, agentSeconds: 15, tokens: 30 });
    expect(byId['US-3']).toMatchObject({ iterations: 0, costUsd: null });
    expect(byId.unknown).toMatchObject({ iterations: 3, costUsd: 7, agentSeconds: 7, unknown: true });
    const sum = (pick: (receipt: (typeof data.receipts)[number]) => number) =>
      data.receipts.reduce((total, receipt) => total + pick(receipt), 0);
    expect(sum((receipt) => receipt.iterations)).toBe(6);
    expect(sum((receipt) => receipt.costUsd ?? 0)).toBeCloseTo(7.875, 9);
  });

  it('has no "unknown" receipt when every row names a story of the list', () => {
    const data = shapeReport(csv([{ story: 'US-3', cost: '1', seconds: '1', complete: 0 }]), stories, NO_REVIEW);
    expect(data.receipts.map((receipt) => receipt.id)).toEqual(['US-1', 'US-2', 'US-3']);
  });

  it('matches a story id with a newline the way the column writes it (on one line)', () => {
    const odd: Story[] = [{ id: 'US\n4', title: 'odd', passes: false }];
    const data = shapeReport(csv([{ story: 'US 4', cost: '1', seconds: '1', complete: 0 }]), odd, NO_REVIEW);
    expect(data.receipts[0]).toMatchObject({ id: 'US\n4', iterations: 1 });
  });

  it('marks an ok iteration the gates rejected, by its gates-NNN.json', () => {
    const text = csv([
      { story: 'US-1', cost: '1', seconds: '1', complete: 0 },
      { story: 'US-1', cost: '1', seconds: '1', complete: 1 },
    ]);
    const data = shapeReport(text, stories, NO_REVIEW, ['gates-002.json', 'gates-002.2.json']);
    expect(data.iterations.map((iteration) => iteration.gateRejected)).toEqual([false, true]);
  });
});
