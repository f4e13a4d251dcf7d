import type { ReportView } from './render-html.js';
import { escapeMarkdown as m } from './escape.js';
import { cumulativeCost } from './charts.js';
import { outcomeText, receiptsNote, seconds } from './render-html.js';
import { counted } from '../domain/plural.js';

/** The report as Markdown (tables, no charts) for a pull request's body or a job's step summary. */
const money = (value: number | null): string => (value === null ? '—' : `$${value.toFixed(2)}`);
const count = (value: number | null): string => (value === null ? '—' : String(value));

function table(header: string[], rows: string[][]): string {
  return [
    `| ${header.join(' | ')} |`,
    `|${header.map(() => ' --- ').join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

function headline(view: ReportView): string[] {
  const { headline } = view;
  const code = headline.exitCode === null ? '' : ` (exit ${headline.exitCode})`;
  return [
    `## ${m(headline.title)}${code}`,
    '',
    ...(headline.detail === null ? [] : [`> ${m(headline.detail)}`, '']),
    `**Next:** ${m(headline.next)}`,
    '',
  ];
}

function receipts(view: ReportView): string[] {
  const { receipts: list, recorded } = view.data;
  if (list.length === 0) return ['No task list: no story to charge.', ''];
  const rows = list.map((r) => [
    m(r.id),
    m(r.title),
    String(r.iterations),
    seconds(r.agentSeconds),
    recorded.cost ? money(r.costUsd) : 'not recorded',
    recorded.tokens ? count(r.tokens) : 'not recorded',
    String(r.reviews),
    String(r.sendBacks),
  ]);
  return [
    table(['Story', 'Title', 'Iterations', 'Agent s', 'Cost', 'Tokens', 'Reviews', 'Send-backs'], rows),
    '',
    m(receiptsNote(recorded.story)),
    '',
  ];
}

function iterations(view: ReportView): string[] {
  const totals = cumulativeCost(view.data.iterations);
  const rows = view.data.iterations.map((it, index) => [
    String(it.iteration),
    String(it.run + 1),
    m(it.mode ?? '—'),
    count(it.durationSeconds),
    m(outcomeText(it)),
    m(it.commit?.slice(0, 10) ?? ''),
    `${count(it.storiesComplete)}/${count(it.storiesTotal)}`,
    money(it.costUsd),
    money(totals[index]!),
    m(it.story ?? ''),
  ]);
  return [
    table(['#', 'Run', 'Mode', 'Seconds', 'Outcome', 'Commit', 'Stories', 'Cost', 'Cumulative', 'Story'], rows),
    '',
  ];
}

export function renderMarkdown(view: ReportView): string {
  const { data } = view;
  const lines = [
    `# ralph report${view.project ? ` — ${m(view.project)}` : ''}`,
    '',
    ...headline(view),
    '### Forecast',
    '',
    ...view.forecast.map((line) => `- ${m(line.replace(/^forecast: /, '').trim())}`),
    '',
  ];
  if (data.iterations.length === 0)
    return [...lines, 'No iteration has run yet: summary.csv holds no row.', ''].join('\n');
  const { totals, recorded } = data;
  lines.push(
    `${counted(data.iterations.length, 'iteration')} in ${counted(data.runs, 'run')}; agent time ${seconds(totals.agentSeconds)} s; cost ${recorded.cost ? money(totals.costUsd) : 'not recorded'}; tokens ${recorded.tokens ? count(totals.tokens) : 'not recorded'}; ${counted(totals.commits, 'commit')}.`,
    '',
    '### Receipts per story',
    '',
    ...receipts(view),
    '### Stuck streaks and gate rejections',
    '',
    ...data.stuckStreaks.map((s) => `- iterations ${s.first}–${s.last}, stuck count up to ${s.peak}`),
    ...view.gateRejections.map((name) => `- gate rejection: \`${name.replace(/`/g, '')}\``),
    ...(data.stuckStreaks.length + view.gateRejections.length === 0 ? ['None.'] : []),
    '',
    '### Every iteration',
    '',
    ...iterations(view),
  );
  return lines.join('\n');
}
