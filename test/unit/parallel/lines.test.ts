import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { displayWidth } from '../../../src/ui/display-width.js';
import { LiveBoard } from '../../../src/parallel/live-board.js';
import { applyMessage, loopLine, newView } from '../../../src/parallel/loop-view.js';
import { liveScreen } from '../../../src/parallel/supervisor-screen.js';
import { MAX_LINE_BYTES, prefixedLines } from '../../../src/parallel/prefixed-lines.js';

/** A target that keeps each write and takes a turn of the event loop over each, noting its most bytes waiting. */
function slowTarget(highWaterMark = 1024) {
  const writes: string[] = [];
  let mostWaiting = 0;
  const target = new Writable({
    highWaterMark,
    write(chunk: Buffer, _encoding, callback) {
      writes.push(chunk.toString());
      setImmediate(callback);
    },
  });
  const write = target.write.bind(target);
  target.write = ((chunk: string) => {
    const accepted = write(chunk);
    mostWaiting = Math.max(mostWaiting, target.writableLength);
    return accepted;
  }) as typeof target.write;
  return { target, writes, mostWaiting: () => mostWaiting };
}

/** Everything a sink of prefixedLines makes of these chunks, once it finished. */
async function forwarded(prefix: string, chunks: string[]): Promise<string[]> {
  const { target, writes } = slowTarget();
  await pipeline(Readable.from(chunks), prefixedLines(prefix, target));
  await new Promise((resolve) => target.end(resolve));
  return writes;
}

describe('prefixedLines', () => {
  it("puts the list's name before each whole line, one write per line, however the chunks fall", async () => {
    expect(await forwarded('api │ ', ['Iteration 1 · imp', 'lement\n✓ commit abc\n'])).toEqual([
      'api │ Iteration 1 · implement\n',
      'api │ ✓ commit abc\n',
    ]);
  });

  it('cuts a line over the bound, marks it, and drops its tail rather than forward it as a line', async () => {
    expect(await forwarded('api │ ', [`${'a'.repeat(MAX_LINE_BYTES)}::error::tail\nnext\n`])).toEqual([
      `api │ ${'a'.repeat(MAX_LINE_BYTES)} …\n`,
      'api │ next\n',
    ]);
  });

  it('keeps every forwarded line off column 0 and its controls shown, not obeyed', async () => {
    const writes = await forwarded('ui │ ', ['::set-output name=x::1\n\u001b]52;c;aGk=\u0007\n']);
    expect(writes[0]).toBe('ui │ ::set-output name=x::1\n');
    expect(writes[1]).not.toContain('\u001b');
    expect(writes[1]).toMatch(/^ui │ ␛\]52/);
  });

  it('takes no more from a loop while its target is full, and hands on every line by the time it finished', async () => {
    const { target, writes, mostWaiting } = slowTarget(1024);
    const lines = Array.from(
      { length: 2000 },
      (_, index) => `line ${String(index).padStart(4, '0')} ${'x'.repeat(88)}\n`,
    );
    const chunks = Array.from({ length: 200 }, (_, index) => lines.slice(index * 10, index * 10 + 10).join(''));
    await pipeline(Readable.from(chunks), prefixedLines('', target));
    await new Promise((resolve) => target.end(resolve));
    // At most the target's mark and one chunk's lines wait in memory, not the whole output.
    expect(mostWaiting()).toBeLessThan(1024 + 1100);
    expect(writes).toEqual(lines);
  });
});

describe('the log of each loop on a terminal', () => {
  it('holds every line written before close, whole and in order', async () => {
    const root = await mkdtemp(join(tmpdir(), 'ralph-screen-'));
    const out = Object.assign(new Writable({ write: (_chunk, _encoding, callback) => callback() }), {
      isTTY: true,
      columns: 80,
    });
    const screen = await liveScreen(out, root, join(root, 'ralph/logs'), ['api'], 'stamp');
    const lines = Array.from({ length: 5000 }, (_, index) => `line ${index} ${'y'.repeat(200)}\n`);
    await pipeline(Readable.from(lines), screen.output('api', 'stdout'));
    await screen.close();
    expect(await readFile(join(root, 'ralph/logs/parallel/stamp-api.log'), 'utf8')).toBe(lines.join(''));
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
