import { describe, expect, it } from 'vitest';
import { displayWidth } from '../../../src/ui/display-width.js';
import { LiveBoard } from '../../../src/parallel/live-board.js';
import { applyMessage, loopLine, newView } from '../../../src/parallel/loop-view.js';
import { MAX_LINE_BYTES, prefixedLines } from '../../../src/parallel/prefixed-lines.js';

describe('prefixedLines', () => {
  it("puts the list's name before each whole line, one write per line, however the chunks fall", () => {
    const writes: string[] = [];
    const lines = prefixedLines('api │ ', (text) => writes.push(text));
    lines.push('Iteration 1 · imp');
    lines.push('lement\n✓ commit abc\n');
    lines.end();
    expect(writes).toEqual(['api │ Iteration 1 · implement\n', 'api │ ✓ commit abc\n']);
  });

  it('cuts a line over the bound, marks it, and drops its tail rather than forward it as a line', () => {
    const writes: string[] = [];
    const lines = prefixedLines('api │ ', (text) => writes.push(text));
    lines.push(`${'a'.repeat(MAX_LINE_BYTES)}::error::tail\nnext\n`);
    lines.end();
    expect(writes).toEqual([`api │ ${'a'.repeat(MAX_LINE_BYTES)} …\n`, 'api │ next\n']);
  });

  it('keeps every forwarded line off column 0 and its controls shown, not obeyed', () => {
    const writes: string[] = [];
    const lines = prefixedLines('ui │ ', (text) => writes.push(text));
    lines.push('::set-output name=x::1\n\u001b]52;c;aGk=\u0007\n');
    lines.end();
    expect(writes[0]).toBe('ui │ ::set-output name=x::1\n');
    expect(writes[1]).not.toContain('\u001b');
    expect(writes[1]).toMatch(/^ui │ ␛\]52/);
  });
});

describe('the live lines', () => {
  it("shows a loop's iteration, story, stories, cost, state and conflicts on one line", () => {
    const view = newView('api');
    applyMessage(view, {
      t: 'started',
      iteration: 3,
      mode: 'implement',
      stories: { complete: 1, total: 4 },
      story: { id: 'US-2', title: 'Login form' },
    });
    applyMessage(view, {
      t: 'finished',
      iteration: 3,
      committed: true,
      outcome: 'ok',
      costUsd: 0.12,
      stories: { complete: 2, total: 4 },
    });
    view.conflicts.set('billing', ['src/routes.ts']);
    expect(loopLine(view, 6)).toBe(
      'api     iteration 3 · US-2 Login form · stories 2/4 · $0.12 · running · committed · conflicts with billing in src/routes.ts',
    );
  });

  it('neutralises a story title the agent wrote: no escape, no line break', () => {
    const view = newView('ui');
    applyMessage(view, {
      t: 'started',
      iteration: 1,
      mode: 'implement',
      stories: { complete: 0, total: 1 },
      story: { id: 'US-1', title: 'x\u001b[2J\ny' },
    });
    const line = loopLine(view, 2);
    expect(line).not.toMatch(/[\u001b\n]/);
    expect(line).toContain('x␛[2J y');
  });

  it('draws one line per loop cut to the width, and redraws the block in place', () => {
    let written = '';
    const out = { write: (text: string) => ((written += text), true) } as unknown as NodeJS.WritableStream;
    const board = new LiveBoard(out, () => 12);
    board.show(['api  iteration 1 · 漢字漢字', 'ui   queued']);
    expect(written).toBe('api  itera…\nui   queued');
    for (const line of written.split('\n')) expect(displayWidth(line)).toBeLessThanOrEqual(11);
    written = '';
    board.print('api  ended complete');
    // Up one row, clear to the end of the screen, the line, then the block again.
    expect(written).toBe('\u001b[1A\r\u001b[Japi  ended complete\napi  itera…\nui   queued');
  });
});
