import { PassThrough } from 'node:stream';
import { finished } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { detectCi, Screen } from '../../../src/ui/screen.js';

function terminal() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stream, text: () => text };
}

const CLEAR = '\r\u001b[2K';

describe('Screen', () => {
  it('keeps the status line below ralph lines and agent output on a TTY', async () => {
    const out = terminal();
    const screen = new Screen(out.stream, { tty: true, timestamps: false });
    screen.status('working');
    screen.line('a ralph line');
    const agent = screen.agentStream(out.stream);
    agent.write('partial');
    agent.end(' line\n');
    await finished(agent);
    screen.status(undefined);
    // The status is drawn, cleared before each write, and drawn again only where a line starts;
    // the agent's half line is never cleared (no status was drawn after it).
    expect(out.text().replace(/\u001b\[\d+m/g, '')).toBe(
      `working${CLEAR}a ralph line\nworking${CLEAR}partial line\nworking${CLEAR}`,
    );
  });

  it('cuts the status line to the terminal width, keeping the last column free', () => {
    const out = terminal();
    const screen = new Screen(out.stream, { tty: true, timestamps: false, columns: () => 12 });
    screen.status('⋯ iteration 12 · implement');
    expect(out.text().replace(/\u001b\[\d+m/g, '')).toBe('⋯ iteratio…');
  });

  it('on a resize redraws the status to the new width, first clearing every row a reflowing terminal wrapped it onto', () => {
    const out = terminal();
    let columns = 120;
    const screen = new Screen(out.stream, { tty: true, timestamps: false, columns: () => columns });
    screen.status('x'.repeat(50));
    columns = 20;
    out.stream.emit('resize');
    // 50 columns at 20 wide are three rows: up two, clear below, draw the cut line.
    expect(out.text().replace(/\u001b\[\d+m/g, '')).toBe(`${'x'.repeat(50)}\u001b[2A\r\u001b[J${'x'.repeat(18)}…`);
    columns = 80;
    out.stream.emit('resize');
    expect(out.text().replace(/\u001b\[\d+m/g, '').endsWith(`…${CLEAR}${'x'.repeat(50)}`)).toBe(true);
  });

  it('draws nothing but the lines off a TTY, with timestamps in CI', () => {
    const out = terminal();
    const screen = new Screen(out.stream, { tty: false, timestamps: true });
    screen.status('working');
    screen.line('one\ntwo');
    expect(out.text().replace(/\u001b\[\d+m/g, '')).toMatch(/^\d\d:\d\d:\d\d one\n\d\d:\d\d:\d\d two\n$/);
  });

  it('starts a ralph line on a new line when the agent left one open', async () => {
    const out = terminal();
    const screen = new Screen(out.stream, { tty: false, timestamps: false });
    const agent = screen.agentStream(out.stream);
    agent.end('no newline');
    await finished(agent);
    screen.line('ralph');
    expect(out.text()).toBe('no newline\nralph\n');
  });
});

describe('detectCi', () => {
  it.each([
    [{}, { ci: false, github: false }],
    [{ CI: 'true' }, { ci: true, github: false }],
    [{ CI: 'false' }, { ci: false, github: false }],
    [{ CI: '0' }, { ci: false, github: false }],
    [{ GITHUB_ACTIONS: 'true' }, { ci: true, github: true }],
  ])('%j', (env, expected) => {
    expect(detectCi(env)).toEqual(expected);
  });
});
