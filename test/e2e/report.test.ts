import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, PACKAGE_ROOT, runRalph } from '../helpers/e2e.js';
import { parseSummaryCsv } from '../../src/report/report-data.js';
import { pngFacts } from '../helpers/png.js';

const HOSTILE_TITLE = 'Login <img src=x onerror=alert(1)> & <script>alert(2)</script>';

function chromium(): string | undefined {
  for (const name of ['chromium', 'chromium-browser']) {
    if (spawnSync('sh', ['-c', `command -v ${name}`]).status === 0) return name;
  }
  return undefined;
}

/** A repository where the scripted agent ran four iterations over three stories, one of them idle. */
async function ranRepo() {
  const repo = await makeRepo({ stories: [{ id: 'US-1', title: HOSTILE_TITLE }, { id: 'US-2' }, { id: 'US-3' }] });
  await repo.steps([{ implement: true }, {}, { implement: true }, { implement: true, completeWhenDone: true }]);
  const run = await runRalph(repo, ['run']);
  expect(run.code).toBe(0);
  return repo;
}

describe('ralph report', () => {
  it('after a run: one SVG per chart, one row per iteration, no URL, receipts adding up, titles as text', async () => {
    const repo = await ranRepo();
    const result = await runRalph(repo, ['report']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('ralph/logs/report.html');
    const html = await readFile(join(repo.root, 'ralph/logs/report.html'), 'utf8');
    const csv = parseSummaryCsv(await readFile(join(repo.root, 'ralph/logs/summary.csv'), 'utf8'));

    expect(html.match(/<svg viewBox="0 0 1000/g)).toHaveLength(3);
    expect(html.match(/<tr class="iteration"/g)).toHaveLength(csv.rows.length);
    expect(csv.rows.length).toBe(4);
    expect(html).not.toMatch(/https?:\/\/|\ssrc="|<link|@import/i);
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<script');
    expect(html).toContain('Login &lt;img src=x onerror=alert(1)&gt; &amp; &lt;script&gt;');

    const receipts = [
      ...html.matchAll(
        /<tr class="receipt" data-iterations="(\d+)" data-seconds="([\d.]+)" data-cost="([\d.]*)" data-tokens="(\d*)" data-story="([^"]*)">/g,
      ),
    ];
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    const column = (name: string) => sum(csv.rows.map((row) => Number(row[name] || 0)));
    expect(receipts).toHaveLength(3);
    expect(column('cost_usd')).toBeGreaterThan(0);
    expect(sum(receipts.map((cell) => Number(cell[1])))).toBe(csv.rows.length);
    expect(sum(receipts.map((cell) => Number(cell[2])))).toBeCloseTo(column('duration_seconds'), 6);
    expect(sum(receipts.map((cell) => Number(cell[3] || 0)))).toBeCloseTo(column('cost_usd'), 6);
    expect(sum(receipts.map((cell) => Number(cell[4] || 0)))).toBe(column('input_tokens') + column('output_tokens'));
    expect(html).toContain('href="iteration-004.log"');
    // Each story's receipt is the sum of the CSV rows that name it: read from the story column, not inferred.
    expect(csv.header).toContain('story');
    for (const receipt of receipts) {
      const mine = csv.rows.filter((row) => row.story === receipt[5]);
      const own = (name: string) => sum(mine.map((row) => Number(row[name] || 0)));
      expect(Number(receipt[1])).toBe(mine.length);
      expect(Number(receipt[3] || 0)).toBeCloseTo(own('cost_usd'), 9);
      expect(Number(receipt[2])).toBeCloseTo(own('duration_seconds'), 6);
    }
    expect(csv.rows.map((row) => row.story)).toEqual(['US-1', 'US-2', 'US-2', 'US-3']);
  });

  it('--format md --out: Markdown tables, escaped, with links nowhere', async () => {
    const repo = await ranRepo();
    const result = await runRalph(repo, ['report', '--format', 'md', '--out', 'out/report.md']);
    expect(result.code).toBe(0);
    const md = await readFile(join(repo.root, 'out/report.md'), 'utf8');
    expect(md).toContain('### Receipts per story');
    expect(md.match(/^\| \d+ \| 1 \|/gm)).toHaveLength(4);
    expect(md).not.toContain('<img');
  });

  it('before any run: a report saying no iteration has run yet', async () => {
    const repo = await makeRepo();
    const result = await runRalph(repo, ['report']);
    expect(result.code).toBe(0);
    expect(await readFile(join(repo.root, 'ralph/logs/report.html'), 'utf8')).toContain('No iteration has run yet');
  });

  it('a file that is no regular file: 74 naming it', async () => {
    const repo = await makeRepo();
    await mkdir(join(repo.root, 'ralph/logs/summary.csv'), { recursive: true });
    const result = await runRalph(repo, ['report']);
    expect(result.code).toBe(74);
    expect(result.stderr).toContain('ralph/logs/summary.csv is a folder, not a regular file');
    expect(result.stderr.split('\n').filter(Boolean).length).toBeLessThanOrEqual(2);
  });

  it('--tasks FILE reads that task list; a bad --format is 64', async () => {
    const repo = await ranRepo();
    await writeFile(
      join(repo.root, 'other.json'),
      JSON.stringify({ stories: [{ id: 'X-9', title: 'Other', passes: false }] }),
    );
    expect((await runRalph(repo, ['report', '--tasks', 'other.json'])).code).toBe(0);
    expect(await readFile(join(repo.root, 'ralph/logs/report.html'), 'utf8')).toContain('X-9');
    const bad = await runRalph(repo, ['report', '--format', 'pdf']);
    expect(bad.code).toBe(64);
    expect(bad.stderr).toContain('--format pdf');
  });

  it.skipIf(chromium() === undefined)('renders in headless Chromium: a non-blank page at the window size', async () => {
    const repo = await ranRepo();
    expect((await runRalph(repo, ['report'])).code).toBe(0);
    const profile = await mkdtemp(join(tmpdir(), 'ralph-chromium-'));
    const screenshot = join(PACKAGE_ROOT, 'test/artifacts/report.png');
    await mkdir(join(PACKAGE_ROOT, 'test/artifacts'), { recursive: true });
    await rm(screenshot, { force: true });
    try {
      // Chromium's flags: no sandbox (root), no network of its own, a throwaway profile.
      execFileSync(
        chromium()!,
        [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-quic',
          '--no-first-run',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          `--user-data-dir=${profile}`,
          `--screenshot=${screenshot}`,
          '--window-size=1200,1600',
          `file://${join(repo.root, 'ralph/logs/report.html')}`,
        ],
        { stdio: 'ignore', timeout: 60_000 },
      );
    } finally {
      await rm(profile, { recursive: true, force: true });
    }
    const facts = pngFacts(await readFile(screenshot));
    expect({ width: facts.width, height: facts.height }).toEqual({ width: 1200, height: 1600 });
    expect(facts.colours).toBeGreaterThan(4);
  });
});

/** A headless Chromium's reading of a page: the DOM after its scripts ran, as text. */
function dumpDom(page: string, profile: string): string {
  return execFileSync(
    chromium()!,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--user-data-dir=${profile}`,
      '--window-size=1200,1600',
      '--dump-dom',
      `file://${page}`,
    ],
    { encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'ignore'] },
  );
}

describe('ralph report: the cost chart as laid out', () => {
  it.skipIf(chromium() === undefined)(
    'draws cost and tokens apart: their lines and labels do not overlap',
    async () => {
      const repo = await ranRepo();
      expect((await runRalph(repo, ['report'])).code).toBe(0);
      const html = await readFile(join(repo.root, 'ralph/logs/report.html'), 'utf8');
      const chart = /<section id="cost">[\s\S]*?<\/section>/.exec(html)?.[0];
      expect(chart).toBeDefined();
      // The report runs no script (its CSP): a page of the test's own lays its chart out and measures it.
      const measure = `<script>const boxes=[...document.querySelectorAll('#cost svg path.series, #cost svg text')].map((el)=>{const r=el.getBoundingClientRect();return{tag:el.tagName,name:el.getAttribute('data-series')||el.textContent,top:r.top,bottom:r.bottom,left:r.left,right:r.right};});document.body.setAttribute('data-boxes',JSON.stringify(boxes));</script>`;
      const profile = await mkdtemp(join(tmpdir(), 'ralph-chromium-'));
      const page = join(profile, 'measure.html');
      await writeFile(page, `<!doctype html><html><body style="width:1000px">${chart}${measure}</body></html>`);
      let dom: string;
      try {
        dom = dumpDom(page, join(profile, 'profile'));
      } finally {
        await rm(profile, { recursive: true, force: true });
      }
      const attribute = /data-boxes="([^"]*)"/.exec(dom)?.[1] ?? '[]';
      const boxes = JSON.parse(attribute.replace(/&quot;/g, '"').replace(/&amp;/g, '&')) as {
        tag: string;
        name: string;
        top: number;
        bottom: number;
        left: number;
        right: number;
      }[];
      const series = boxes.filter((box) => box.tag === 'path');
      const cost = series.find((box) => box.name === 'cost (USD)');
      const tokens = series.find((box) => box.name === 'tokens');
      expect(cost && tokens).toBeTruthy();
      expect(cost!.bottom).toBeLessThanOrEqual(tokens!.top);
      const labels = boxes.filter((box) => box.tag === 'text');
      const overlaps = labels.flatMap((a, index) =>
        labels
          .slice(index + 1)
          .filter((b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
          .map((b) => `${a.name} / ${b.name}`),
      );
      expect(overlaps).toEqual([]);
    },
  );
});

describe('ralph run --report', () => {
  it('writes ralph/logs/report.html at the ending, with the run in it', async () => {
    const repo = await makeRepo();
    await repo.steps([{ implement: true }, { implement: true, completeWhenDone: true }]);
    const run = await runRalph(repo, ['run', '--report']);
    expect(run.code).toBe(0);
    const html = await readFile(join(repo.root, 'ralph/logs/report.html'), 'utf8');
    expect(html).toContain('The last run ended: complete (exit 0)');
    expect(html.match(/<tr class="iteration"/g)).toHaveLength(2);
  });

  it('a report that cannot be written is one warning; the exit code stays the run’s', async () => {
    const repo = await makeRepo();
    await repo.steps([{ implement: true }, { implement: true, completeWhenDone: true }]);
    await mkdir(join(repo.root, 'ralph/logs/report.html'), { recursive: true });
    const run = await runRalph(repo, ['run', '--report']);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/warning: the report \(ralph\/logs\/report\.html\) could not be written/);
  });
});
