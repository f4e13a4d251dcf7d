import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeReport } from '../../../src/report/write-report.js';
import { ralphPaths } from '../../../src/files/paths.js';
import { withRecords, type RunPaths } from '../../../src/files/record-paths.js';
import { literalBlock } from '../../../src/ui/github-actions.js';

// A long-lived repository's summary.csv grows by a row an iteration, forever: the report must not
// pass its rows as a function's arguments (Math.max(...rows) overflows the call stack at about
// 130,000). Generated here, so no fixture of megabytes is kept.
const ROWS = 200_000;
const HEADER =
  'iteration,mode,duration_seconds,commit_hash,stories_complete,stories_total,stuck_count,timestamp,outcome,agent_exit_code,cost_usd,input_tokens,output_tokens,num_turns,tool_calls';

describe(`ralph report over ${ROWS} rows of summary.csv`, () => {
  let root: string;
  let paths: RunPaths;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'ralph-big-report-'));
    paths = withRecords(ralphPaths(root), join(root, '.git/ralph'));
    await mkdir(paths.logs, { recursive: true });
    const rows = Array.from(
      { length: ROWS },
      (_, index) => `${index + 1},implement,10,c${index},1,2,0,2026-01-01T00:00:00Z,ok,0,0.5,100,20,3,4`,
    );
    // The last row holds the largest cost: the charts are scaled to it.
    rows[ROWS - 1] = rows[ROWS - 1]!.replace(',0.5,', ',7.5,');
    await writeFile(paths.summaryCsv, `${HEADER}\n${rows.join('\n')}\n`);
  });
  afterAll(() => rm(root, { recursive: true, force: true }));

  // What is checked is that it is written whole, not how fast: a busy machine gets all the time it needs.
  it.each(['html', 'md'] as const)(
    'writes the %s report with every row',
    async (format) => {
      const out = await writeReport(paths, { format, review: { review: false }, now: 0 });
      const text = await readFile(out, 'utf8');
      expect(text).toContain(format === 'html' ? `<td>${ROWS}</td>` : `| ${ROWS} |`);
      const maxCost = Number((0.5 * (ROWS - 1) + 7.5).toPrecision(3));
      if (format === 'html') expect(text).toContain(`cost (USD) (max ${maxCost})`);
    },
    600_000,
  );
});

describe('a literal block of text the agent wrote', () => {
  it(`fences ${ROWS} runs of backticks with a longer fence`, () => {
    const text = '`a``b'.repeat(ROWS / 2);
    expect(literalBlock(text).split('\n')[0]).toBe('```text');
    expect(literalBlock(`${text}\`\`\`\`x`).split('\n')[0]).toBe('`````text');
  });
});
