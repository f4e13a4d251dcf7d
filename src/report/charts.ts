import { scaleLinear } from 'd3-scale';
import { curveStepAfter, line } from 'd3-shape';
import type { ReportData, ReportIteration } from './report-data.js';
import { escapeHtml } from './escape.js';

/**
 * The report's charts as inline SVG, geometry from d3-scale and d3-shape (computed in Node; the
 * page runs no script). Colour is never the only signal: outcomes also differ by pattern, lines by
 * dash, and every chart has its table.
 */
const WIDTH = 1000;
const MARGIN = { top: 16, right: 16, bottom: 28, left: 56 };

/** Okabe–Ito, distinguishable with the common colour-vision deficiencies; a pattern per class. */
export const OUTCOME_STYLE: Record<string, { colour: string; pattern: string; label: string }> = {
  ok: { colour: '#009E73', pattern: 'solid', label: 'ok' },
  failed: { colour: '#D55E00', pattern: 'hatch', label: 'agent failed' },
  limit: { colour: '#E69F00', pattern: 'dots', label: 'usage limit / interrupted' },
  stopped: { colour: '#CC79A7', pattern: 'cross', label: 'timeout / repetition / rewritten' },
  rejected: { colour: '#0072B2', pattern: 'bars', label: 'gates rejected' },
  unknown: { colour: '#999999', pattern: 'solid', label: 'not recorded' },
};

/** The style of an iteration's outcome; an `ok` the gates then rejected is `rejected`, never `ok`. */
export function outcomeClass(outcome: string | null, gateRejected = false): keyof typeof OUTCOME_STYLE {
  if (outcome === null) return 'unknown';
  if (outcome === 'ok') return gateRejected ? 'rejected' : 'ok';
  if (outcome === 'usage_limit' || outcome === 'interrupted') return 'limit';
  if (outcome.startsWith('agent_')) return 'failed';
  return 'stopped';
}

function patterns(): string {
  const defs = Object.entries(OUTCOME_STYLE).map(([name, style]) => {
    const marks: Record<string, string> = {
      solid: '',
      hatch: '<path d="M0,6 L6,0" stroke="#fff" stroke-width="1.5"/>',
      dots: '<circle cx="3" cy="3" r="1.3" fill="#fff"/>',
      cross: '<path d="M0,0 L6,6 M6,0 L0,6" stroke="#fff" stroke-width="1"/>',
      bars: '<path d="M0,3 H6" stroke="#fff" stroke-width="1.5"/>',
    };
    return `<pattern id="p-${name}" width="6" height="6" patternUnits="userSpaceOnUse"><rect width="6" height="6" fill="${style.colour}"/>${marks[style.pattern]}</pattern>`;
  });
  return `<defs>${defs.join('')}</defs>`;
}

function svg(height: number, label: string, body: string): string {
  return `<svg viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="${escapeHtml(label)}">${body}</svg>`;
}

const round = (value: number): string => String(Math.round(value * 10) / 10);

/** Iterations laid end to end by agent time: bar length = duration, a tick per commit, runs divided. */
export function timelineSvg(data: ReportData): string {
  const height = 120;
  const starts: number[] = [];
  let total = 0;
  for (const iteration of data.iterations) {
    starts.push(total);
    total += Math.max(iteration.durationSeconds ?? 0, 0);
  }
  const x = scaleLinear([0, Math.max(total, 1)], [MARGIN.left, WIDTH - MARGIN.right]);
  const parts = data.iterations.map((iteration, index) => {
    const left = x(starts[index]!);
    const width = Math.max(x(starts[index]! + (iteration.durationSeconds ?? 0)) - left, 0.5);
    const style = outcomeClass(iteration.outcome, iteration.gateRejected);
    const bar = `<rect x="${round(left)}" y="30" width="${round(width)}" height="40" fill="url(#p-${style})"><title>#${iteration.iteration}</title></rect>`;
    const commit = iteration.commit ? `<path d="M${round(left + width / 2)},28 l-3,-6 h6 z" fill="#000"/>` : '';
    const review = iteration.mode && iteration.mode !== 'implement';
    const band = review ? `<rect x="${round(left)}" y="74" width="${round(width)}" height="8" fill="#0072B2"/>` : '';
    const boundary =
      index > 0 && iteration.run !== data.iterations[index - 1]!.run
        ? `<line x1="${round(left)}" x2="${round(left)}" y1="14" y2="90" stroke="#000" stroke-dasharray="4 3"/>`
        : '';
    return bar + commit + band + boundary;
  });
  const axis = x
    .ticks(6)
    .map(
      (tick) =>
        `<text x="${round(x(tick))}" y="${height - 8}" font-size="11" text-anchor="middle">${total < 600 ? `${tick} s` : `${round(tick / 60)} min`}</text>`,
    );
  return svg(height, 'Timeline of iterations by agent time', patterns() + parts.join('') + axis.join(''));
}

/** One line of a chart: its values over the iterations, how it is drawn and named. */
interface Series {
  name: string;
  values: (number | null)[];
  dash: string;
  colour: string;
  step?: boolean;
}

const PANEL_HEIGHT = 150;

/**
 * A line chart over the iterations, one panel per series stacked on a shared iteration axis: each
 * series on its own scale, so two that grow alike (cost and tokens) never lie on each other.
 */
function seriesSvg(label: string, series: Series[]): string {
  const height = PANEL_HEIGHT * series.length + MARGIN.bottom;
  const count = Math.max(series[0]?.values.length ?? 0, 2);
  const x = scaleLinear([0, count - 1], [MARGIN.left, WIDTH - MARGIN.right]);
  const panels = series.map((one, index) => panelSvg(one, x, PANEL_HEIGHT * index));
  const bottom = PANEL_HEIGHT * series.length;
  const axis = `<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${bottom}" y2="${bottom}" stroke="#000"/>`;
  const ticks = x
    .ticks(Math.min(count - 1, 10))
    .filter(Number.isInteger)
    .map(
      (tick) => `<text x="${round(x(tick))}" y="${bottom + 16}" font-size="11" text-anchor="middle">${tick + 1}</text>`,
    );
  return svg(height, label, axis + panels.join('') + ticks.join(''));
}

/** One series in its band of the chart (from `top`, PANEL_HEIGHT high): its line, its scale, its name. */
function panelSvg(one: Series, x: (at: number) => number, top: number): string {
  // A loop, not Math.max(...values): a spread passes every value as an argument, and some
  // 130,000 rows of summary.csv overflow the call stack.
  const max = one.values.reduce<number>((most, value) => Math.max(most, value ?? 0), 1e-9);
  const floor = top + PANEL_HEIGHT - 8;
  const y = scaleLinear([0, max], [floor, top + MARGIN.top + 8]);
  const draw = line<number | null>()
    .defined((value) => value !== null)
    .x((_, at) => x(at))
    .y((value) => y(value ?? 0))
    .digits(1);
  if (one.step) draw.curve(curveStepAfter);
  const shown = Number(max.toPrecision(3));
  return (
    `<g class="panel"><line x1="${MARGIN.left}" x2="${MARGIN.left}" y1="${top + MARGIN.top}" y2="${floor}" stroke="#999"/>` +
    `<text x="${MARGIN.left - 4}" y="${round(y(max) + 4)}" font-size="10" text-anchor="end">${shown}</text>` +
    `<text x="${MARGIN.left - 4}" y="${floor}" font-size="10" text-anchor="end">0</text>` +
    `<text x="${MARGIN.left + 6}" y="${top + MARGIN.top}" font-size="11">${escapeHtml(one.name)} (max ${shown})</text>` +
    `<path class="series" data-series="${escapeHtml(one.name)}" d="${draw(one.values) ?? ''}" fill="none" stroke="${one.colour}" stroke-width="2" stroke-dasharray="${one.dash}"/></g>`
  );
}

function cumulative(values: (number | null)[]): (number | null)[] {
  let sum = 0;
  let seen = false;
  return values.map((value) => {
    if (value !== null) {
      sum += value;
      seen = true;
    }
    return seen ? sum : null;
  });
}

export function cumulativeCost(iterations: readonly ReportIteration[]): (number | null)[] {
  return cumulative(iterations.map((iteration) => iteration.costUsd));
}

export function cumulativeTokens(iterations: readonly ReportIteration[]): (number | null)[] {
  return cumulative(
    iterations.map((iteration) =>
      iteration.inputTokens === null && iteration.outputTokens === null
        ? null
        : (iteration.inputTokens ?? 0) + (iteration.outputTokens ?? 0),
    ),
  );
}

export function costSvg(data: ReportData): string {
  return seriesSvg('Cumulative cost and tokens', [
    { name: 'cost (USD)', values: cumulativeCost(data.iterations), dash: '0', colour: '#D55E00' },
    { name: 'tokens', values: cumulativeTokens(data.iterations), dash: '6 4', colour: '#0072B2' },
  ]);
}

export function storiesSvg(data: ReportData): string {
  return seriesSvg('Stories passing over iterations', [
    {
      name: 'stories complete',
      values: data.iterations.map((iteration) => iteration.storiesComplete),
      dash: '0',
      colour: '#009E73',
      step: true,
    },
  ]);
}
