import { PassThrough, Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { detectCi, Screen } from '../../../src/ui/screen.js';
import { readAsRunner } from '../../helpers/workflow-commands.js';

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
    expect(
      out
        .text()
        .replace(/\u001b\[\d+m/g, '')
        .endsWith(`…${CLEAR}${'x'.repeat(50)}`),
    ).toBe(true);
  });

  it('draws nothing but the lines off a TTY, with timestamps in CI', () => {
    const out = terminal();
    const screen = new Screen(out.stream, { tty: false, timestamps: true });
    screen.status('working');
    screen.line('one\ntwo');
    expect(out.text().replace(/\u001b\[\d+m/g, '')).toMatch(/^\d\d:\d\d:\d\d one\n\d\d:\d\d:\d\d two\n$/);
  });

  it("on a TTY never lets the agent's stdout and stderr share a line: both reach one terminal", async () => {
    let shown = '';
    const show = (chunk: Buffer) => (shown += chunk.toString());
    const stdout = new PassThrough().on('data', show);
    const stderr = new PassThrough().on('data', show);
    const screen = new Screen(stdout, { tty: true, timestamps: false });
    const agentOut = screen.agentStream(stdout);
    const agentErr = screen.agentStream(stderr);
    agentOut.write('Reading src/index.ts');
    agentErr.end('npm warn deprecated\n');
    agentOut.end();
    await Promise.all([finished(agentOut), finished(agentErr)]);
    expect(shown).toBe('Reading src/index.ts\nnpm warn deprecated\n');
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

  it("starts ralph's error line at column 0 of a terminal where the agent left a line open", async () => {
    // On a TTY stdout and stderr are one terminal.
    const out = terminal();
    const screen = new Screen(out.stream, { tty: true, timestamps: false, stderr: out.stream });
    const agent = screen.agentStream(out.stream);
    agent.end('Running tests');
    await finished(agent);
    screen.error('ralph: cannot write ralph/logs/summary.csv: ENOSPC (no space left on device)');
    expect(out.text()).toBe(
      'Running tests\nralph: cannot write ralph/logs/summary.csv: ENOSPC (no space left on device)\n',
    );
  });
});

describe('Screen on GitHub Actions', () => {
  it('keeps commands stopped around everything but its own commands, and resumes them on its own line', async () => {
    const out = terminal();
    const errors = terminal();
    const screen = new Screen(out.stream, { tty: false, timestamps: false, github: true });
    screen.line('── Iteration 1 · US-1 ::error::from a title');
    screen.command('::group::Iteration 1 (implement)');
    const agent = screen.agentStream(out.stream);
    const agentErrors = screen.agentStream(errors.stream);
    agent.write('::add-mask::secret\n   ::error::indented\n');
    agentErrors.write('::warning::on stderr, no newline');
    agent.end('::error::last line, no newline');
    agentErrors.end();
    await Promise.all([finished(agent), finished(agentErrors)]);
    screen.command('::endgroup::');
    screen.line('summary\n    ::set-output name=x::y');
    await screen.close();
    const runner = readAsRunner(out.text());
    expect(runner.obeyed.map((command) => command.name)).toEqual([
      'stop-commands',
      'resume',
      'group',
      'stop-commands',
      'resume',
      'endgroup',
      'stop-commands',
      'resume',
    ]);
    expect(runner.stopped).toBe(false);
    // Each stop has a fresh token, and the agent's unfinished lines were ended before ralph's.
    const tokens = runner.obeyed.filter((command) => command.name === 'stop-commands').map((command) => command.data);
    expect(new Set(tokens).size).toBe(3);
    expect(out.text()).toContain('::error::last line, no newline\n::');
    expect(errors.text()).toBe('::warning::on stderr, no newline\n');
    expect(out.text()).not.toMatch(/\u001b\[/);
  });

  it('never lets two agent streams joined on one target share a line', async () => {
    const out = terminal();
    const screen = new Screen(out.stream, { tty: false, timestamps: false });
    const agentOut = screen.agentStream(out.stream);
    const agentErr = screen.agentStream(out.stream);
    agentErr.write('::warning::unfinished');
    agentOut.write('::add-mask::next');
    agentOut.end(' more\n');
    agentErr.end();
    await Promise.all([finished(agentOut), finished(agentErr)]);
    expect(out.text()).toBe('::warning::unfinished\n::add-mask::next more\n');
  });

  it('prints no timestamp or stop when it is not on Actions', async () => {
    const out = terminal();
    const screen = new Screen(out.stream, { tty: false, timestamps: false });
    screen.line('a');
    screen.command('::group::x');
    await screen.close();
    expect(out.text()).toBe('a\n::group::x\n');
  });
});

/** A terminal that writes asynchronously, as a pipe does on macOS: each chunk is taken a turn later. */
function asyncTerminal() {
  let text = '';
  const stream = new Writable({
    highWaterMark: 4,
    write(chunk: Buffer, _encoding, callback) {
      setImmediate(() => {
        text += chunk.toString();
        callback();
      });
    },
  });
  return { stream, text: () => text };
}

describe('Screen on a terminal that writes asynchronously', () => {
  it("never lets ralph's lines overtake agent output handed over before them, nor leaves commands stopped", async () => {
    const out = asyncTerminal();
    const screen = new Screen(out.stream, { tty: false, timestamps: false, github: true });
    screen.command('::group::Iteration 1 (implement)');
    const agent = screen.agentStream(out.stream);
    // What the agent's output reached before the iteration ended: handed over, not yet written.
    for (const line of ['one\n', 'two\n', '::error::three\n']) agent.write(line);
    screen.command('::endgroup::');
    screen.line('summary');
    screen.command('::error title=ralph stopped::ralph: stuck (exit 4)');
    await screen.close();
    const lines = out.text().split('\n');
    expect(lines.filter((line) => !line.startsWith('::stop-commands::') && !/^::ralph-/.test(line))).toEqual([
      '::group::Iteration 1 (implement)',
      'one',
      'two',
      '::error::three',
      '::endgroup::',
      'summary',
      '::error title=ralph stopped::ralph: stuck (exit 4)',
      '',
    ]);
    const runner = readAsRunner(out.text());
    expect(runner.stopped).toBe(false);
    // Commands are stopped from the screen's start, resumed only around each of ralph's own.
    expect(runner.obeyed.map((command) => command.name)).toEqual([
      'stop-commands',
      'resume',
      'group',
      'stop-commands',
      'resume',
      'endgroup',
      'stop-commands',
      'resume',
      'error',
      'stop-commands',
      'resume',
    ]);
  });

  it("never lets ralph's error line overtake agent output handed over before it", async () => {
    const out = asyncTerminal();
    const errors = terminal();
    const screen = new Screen(out.stream, { tty: false, timestamps: false, stderr: errors.stream });
    const agent = screen.agentStream(out.stream);
    for (const line of ['one\n', 'two\n']) agent.write(line);
    screen.error('ralph: cannot write ralph/.ralph-active: EROFS (read-only file system)');
    // Held until the terminal has written the agent's lines.
    expect(errors.text()).toBe('');
    await screen.close();
    expect(out.text()).toBe('one\ntwo\n');
    expect(errors.text()).toBe('ralph: cannot write ralph/.ralph-active: EROFS (read-only file system)\n');
  });

  it('resolves close only once the terminal has written everything', async () => {
    const out = asyncTerminal();
    const screen = new Screen(out.stream, { tty: false, timestamps: false });
    const agent = screen.agentStream(out.stream);
    agent.write('unfinished');
    screen.line('last line');
    await screen.close();
    expect(out.text()).toBe('unfinished\nlast line\n');
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
