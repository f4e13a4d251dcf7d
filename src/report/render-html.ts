import type { ReportData, ReportIteration } from './report-data.js';
import type { Headline } from './headline.js';
import { escapeHtml as e } from './escape.js';
import { costSvg, cumulativeCost, OUTCOME_STYLE, outcomeClass, storiesSvg, timelineSvg } from './charts.js';
import { iterationFileName } from '../files/paths.js';
import { counted } from '../domain/plural.js';

/** What the page shows; the HTML and the Markdown renderings read the same. */
export interface ReportView {
  project: string | null;
  generatedAt: string;
  headline: Headline;
  data: ReportData;
  /** Gate blocking events, file names in the logs folder. */
  gateRejections: string[];
  /** The logs folder as a link from the report's own folder ("" when they are the same). */
  logsHref: string;
  /** The forecast's lines (forecast-text.ts): the stories left at the pace ralph measured. */
  forecast: string[];
}

const NOT_RECORDED = '<p class="none">Not recorded: this summary.csv was written by an older ralph.</p>';

/** Scripts forbidden, nothing fetched: the page is only its own inline CSS and SVG. */
const CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'none'; base-uri 'none'; form-action 'none'";

const CSS = `body{font:14px/1.45 system-ui,sans-serif;margin:2rem auto;max-width:1040px;color:#111;padding:0 1rem}
h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem;border-bottom:1px solid #ccc}
.headline{border-left:6px solid #0072B2;padding:.5rem 1rem;background:#f3f6fa}
.detail{white-space:pre-wrap;font-family:ui-monospace,monospace;background:#fff;padding:.5rem;border:1px solid #ddd}
table{border-collapse:collapse;width:100%;font-size:12px}th,td{border:1px solid #ccc;padding:2px 6px;text-align:right}
th:first-child,th.text,td.text{text-align:left}svg{width:100%;height:auto;border:1px solid #eee}
.legend span{display:inline-block;margin-right:1rem}.swatch{width:14px;height:14px;vertical-align:middle;margin-right:4px}
.none{color:#555;font-style:italic}details{margin:.5rem 0}
@media print{body{margin:0;max-width:none}h2{break-after:avoid}svg,tr{break-inside:avoid}a{color:inherit;text-decoration:none}}`;

const money = (value: number | null): string => (value === null ? '—' : `$${value.toFixed(2)}`);
const count = (value: number | null): string => (value === null ? '—' : String(value));
export const seconds = (value: number): string => String(Math.round(value * 10) / 10);

function headlineHtml(headline: Headline): string {
  const code = headline.exitCode === null ? '' : ` (exit ${headline.exitCode})`;
  const detail = headline.detail === null ? '' : `<div class="detail">${e(headline.detail)}</div>`;
  const when = headline.endedAt === null ? '' : `<p>Ended ${e(headline.endedAt)}</p>`;
  return `<section class="headline"><h1>${e(headline.title)}${code}</h1>${when}${detail}<p><strong>Next:</strong> ${e(headline.next)}</p></section>`;
}

function legend(): string {
  const items = Object.entries(OUTCOME_STYLE).map(
    ([name, style]) =>
      `<span><svg class="swatch" viewBox="0 0 14 14"><rect width="14" height="14" fill="url(#p-${name})"/></svg>${e(style.label)} (${style.pattern})</span>`,
  );
  return `<p class="legend">${items.join('')}<span>▼ commit</span><span>blue band: review or fix</span><span>dashed line: a new run</span></p>`;
}

function chart(id: string, title: string, svg: string, recorded: boolean, extra = ''): string {
  const body = recorded ? `${svg}${extra}` : NOT_RECORDED;
  return `<section id="${id}"><h2>${title}</h2><figure>${body}<figcaption>Its table: <a href="#iterations">every iteration</a>.</figcaption></figure></section>`;
}

function receiptsHtml(view: ReportView): string {
  const { receipts, recorded } = view.data;
  if (receipts.length === 0) return '<p class="none">No task list: no story to charge.</p>';
  const rows = receipts.map(
    (r) =>
      `<tr class="receipt" data-iterations="${r.iterations}" data-seconds="${r.agentSeconds}" data-cost="${r.costUsd ?? ''}" data-tokens="${r.tokens ?? ''}" data-story="${e(r.id)}"><td class="text">${e(r.id)}</td><td class="text">${e(r.title)}</td><td>${r.iterations}</td><td>${seconds(r.agentSeconds)}</td><td>${recorded.cost ? money(r.costUsd) : 'not recorded'}</td><td>${recorded.tokens ? count(r.tokens) : 'not recorded'}</td><td>${r.reviews}</td><td>${r.sendBacks}</td></tr>`,
  );
  return `<table class="receipts"><thead><tr><th>Story</th><th class="text">Title</th><th>Iterations</th><th>Agent s</th><th>Cost</th><th>Tokens</th><th>Reviews</th><th>Send-backs</th></tr></thead><tbody>${rows.join('')}</tbody></table>
<p class="none">${e(receiptsNote(recorded.story))}</p>`;
}

/** How the iterations were charged to stories: read from the CSV, or (an older ralph's file) inferred. */
export function receiptsNote(read: boolean): string {
  return read
    ? 'Each iteration is charged to the story its summary.csv row names (the story ralph chose for its prompt); "unknown" holds the rows that name none of the list.'
    : 'This summary.csv was begun by an older ralph and does not name the story of an iteration: iterations are charged to the story that became complete after them (in priority order), the rest to the first open story.';
}

function stuckHtml(view: ReportView): string {
  const streaks = view.data.stuckStreaks.map(
    (s) => `<li>iterations ${s.first}–${s.last}, stuck count up to ${s.peak}</li>`,
  );
  const gates = view.gateRejections.map((name) => `<li><a href="${e(view.logsHref + name)}">${e(name)}</a></li>`);
  return `<h3>Stuck streaks</h3>${streaks.length ? `<ul>${streaks.join('')}</ul>` : '<p class="none">None.</p>'}
<h3>Gate rejections</h3>${gates.length ? `<ul>${gates.join('')}</ul>` : '<p class="none">None.</p>'}`;
}

function iterationRow(iteration: ReportIteration, cost: number | null, logsHref: string): string {
  const log = e(logsHref + iterationFileName(iteration.iteration, 'log'));
  const jsonl = e(logsHref + iterationFileName(iteration.iteration, 'jsonl'));
  const outcome = outcomeText(iteration);
  const style = OUTCOME_STYLE[outcomeClass(iteration.outcome, iteration.gateRejected)]!;
  return `<tr class="iteration" data-outcome="${e(outcome)}"><td>${iteration.iteration}</td><td>${iteration.run + 1}</td><td class="text">${e(iteration.mode ?? '—')}</td><td>${count(iteration.durationSeconds)}</td><td class="text">${e(outcome)} [${style.pattern}]</td><td class="text">${e(iteration.commit?.slice(0, 10) ?? '')}</td><td>${count(iteration.storiesComplete)}/${count(iteration.storiesTotal)}</td><td>${count(iteration.stuckCount)}</td><td>${money(iteration.costUsd)}</td><td>${money(cost)}</td><td class="text">${e(iteration.story ?? '')}</td><td class="text"><a href="${log}">log</a> <a href="${jsonl}">jsonl</a></td></tr>`;
}

/** The outcome as the report says it: an `ok` whose claim the gates rejected is "gates rejected". */
export function outcomeText(iteration: ReportIteration): string {
  if (iteration.outcome === null) return 'not recorded';
  return iteration.gateRejected && iteration.outcome === 'ok' ? 'gates rejected' : iteration.outcome;
}

function iterationsHtml(view: ReportView): string {
  const totals = cumulativeCost(view.data.iterations);
  const rows = view.data.iterations.map((iteration, index) => iterationRow(iteration, totals[index]!, view.logsHref));
  return `<table><thead><tr><th>#</th><th>Run</th><th>Mode</th><th>Seconds</th><th>Outcome</th><th>Commit</th><th>Stories</th><th>Stuck</th><th>Cost</th><th>Cumulative</th><th>Story</th><th>Logs</th></tr></thead><tbody>${rows.join('\n')}</tbody></table>`;
}

function factsHtml(view: ReportView): string {
  const { totals, iterations, runs, recorded } = view.data;
  return `<p>${counted(iterations.length, 'iteration')} in ${counted(runs, 'run')}; agent time ${seconds(totals.agentSeconds)} s; cost ${recorded.cost ? money(totals.costUsd) : 'not recorded'}; tokens ${recorded.tokens ? count(totals.tokens) : 'not recorded'}; ${counted(totals.commits, 'commit')}.</p>`;
}

function forecastHtml(lines: readonly string[]): string {
  const [first = '', ...windows] = lines.map((line) => line.replace(/^forecast: /, '').trim());
  const items = windows.map((line) => `<li>${e(line)}</li>`).join('');
  return `<p class="forecast">${e(first)}</p>${items ? `<ul>${items}</ul>` : ''}<p class="none">From ralph's own records of this task list's runs (never summary.csv, which the agent can rewrite).</p>`;
}

/** The whole page: self-contained, readable with scripts off, printable. */
export function renderHtml(view: ReportView): string {
  const title = `ralph report${view.project ? ` — ${view.project}` : ''}`;
  const { data } = view;
  const empty = data.iterations.length === 0;
  const body = empty
    ? '<p class="none">No iteration has run yet: summary.csv holds no row.</p>'
    : [
        factsHtml(view),
        chart('timeline', 'Timeline of iterations', timelineSvg(data), true, legend()),
        chart('cost', 'Cumulative cost and tokens', costSvg(data), data.recorded.cost || data.recorded.tokens),
        chart('stories', 'Stories passing', storiesSvg(data), data.recorded.stories),
        `<section id="receipts"><h2>Receipts per story</h2>${receiptsHtml(view)}</section>`,
        `<section id="stuck"><h2>Stuck streaks and gate rejections</h2>${stuckHtml(view)}</section>`,
        `<section id="iterations"><h2>Every iteration</h2>${iterationsHtml(view)}</section>`,
      ].join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(title)}</title><style>${CSS}</style></head>
<body>${headlineHtml(view.headline)}
<p>${e(title)} · generated ${e(view.generatedAt)}</p>
<section id="forecast"><h2>Forecast</h2>${forecastHtml(view.forecast)}</section>
${body}
</body></html>
`;
}
