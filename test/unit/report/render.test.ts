import { describe, expect, it } from 'vitest';
import { shapeReport } from '../../../src/report/report-data.js';
import { renderHtml, type ReportView } from '../../../src/report/render-html.js';
import { renderMarkdown } from '../../../src/report/render-markdown.js';
import { escapeMarkdown } from '../../../src/report/escape.js';

const HOSTILE = '<script>alert(1)</script><img src=x onerror=alert(2)>';
const CSV = [
  'iteration,mode,duration_seconds,commit_hash,stories_complete,stories_total,stuck_count,timestamp,outcome,cost_usd,input_tokens,output_tokens',
  '1,implement,10,abc,0,1,0,t,ok,0.5,10,5',
  '2,implement,20,def,1,1,0,t,agent_error,0.25,10,5',
].join('\n');

function view(csv = CSV): ReportView {
  const data = shapeReport(csv, [{ id: 'US-1', title: HOSTILE, passes: true }], { review: false });
  return {
    project: HOSTILE,
    generatedAt: '2026-01-01T00:00:00Z',
    forecast: ['forecast: 1 story left; no measure yet', '  usage five_hour 40%'],
    headline: {
      title: 'The last run ended: blocked',
      reason: 'blocked',
      exitCode: 2,
      detail: HOSTILE,
      next: 'x',
      endedAt: null,
    },
    data,
    gateRejections: ['gates-002.json'],
    logsHref: '',
  };
}

describe('renderHtml', () => {
  const html = renderHtml(view());

  it('renders agent and task-list text as text, never as markup', () => {
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;');
  });

  it('forbids scripts and fetches nothing', () => {
    expect(html).toMatch(
      /<meta http-equiv="Content-Security-Policy" content="default-src 'none';[^"]*script-src 'none'/,
    );
    expect(html).not.toMatch(/https?:\/\/|\ssrc="|<link|@import|url\((?!#)/i);
  });

  it('draws one SVG per chart plus legend swatches, and one table row per iteration', () => {
    expect(html.match(/<svg viewBox="0 0 1000/g)).toHaveLength(3);
    expect(html.match(/<tr class="iteration"/g)).toHaveLength(2);
    expect(html).toContain('href="iteration-002.log"');
    expect(html).toContain('@media print');
  });

  it('says no iteration has run yet for an empty CSV', () => {
    const empty = renderHtml(view(''));
    expect(empty).toContain('No iteration has run yet');
    expect(empty).not.toContain('<svg viewBox="0 0 1000');
  });

  it('says "not recorded" where an older CSV lacks the columns', () => {
    const old = renderHtml(view('iteration,mode,duration_seconds\n1,implement,3\n'));
    expect(old).toContain('Not recorded');
  });
});

describe('renderMarkdown', () => {
  it('escapes HTML and Markdown in every cell, and a pipe cannot break a row', () => {
    const md = renderMarkdown(view());
    expect(md).not.toContain('<script');
    expect(md).not.toContain('<img');
    expect(escapeMarkdown('a|b\nc [x](http://e)')).toBe('a\\|b c \\[x\\]\\(http://e\\)');
    expect(md.match(/^\| \d+ \|/gm)).toHaveLength(2);
  });
});

describe('an iteration the gates rejected', () => {
  const rejected = (): ReportView => {
    const base = view();
    return {
      ...base,
      data: shapeReport(CSV, [], { review: false }, ['gates-001.json']),
      gateRejections: ['gates-001.json'],
    };
  };

  it('shows as rejected in its row and on the timeline, never as ok', () => {
    const html = renderHtml(rejected());
    expect(html).toContain('<tr class="iteration" data-outcome="gates rejected">');
    expect(html).toContain('fill="url(#p-rejected)"');
    expect(html).not.toContain('data-outcome="ok"');
    expect(renderMarkdown(rejected())).toMatch(/\| 1 \| 1 \| implement \| 10 \| gates rejected \|/);
  });

  it('counts in the singular where the count is one', () => {
    const one = renderHtml({
      ...view(),
      data: shapeReport(CSV.split('\n').slice(0, 2).join('\n'), [], { review: false }),
    });
    expect(one).toContain('1 iteration in 1 run;');
    expect(one).toContain('1 commit.');
  });

  it('shows the forecast it is given', () => {
    expect(renderHtml(view())).toContain(
      '<section id="forecast"><h2>Forecast</h2><p class="forecast">1 story left; no measure yet</p>',
    );
    expect(renderMarkdown(view())).toContain('### Forecast\n\n- 1 story left; no measure yet\n- usage five\\_hour 40%');
  });
});
