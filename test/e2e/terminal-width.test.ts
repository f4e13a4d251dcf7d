import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { delimiter } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { displayWidth } from '../../src/ui/display-width.js';
import { FAKE_BIN_DIR, makeRepo, RALPH_BIN, waitFor, type Repo } from '../helpers/e2e.js';

// The live status line seen through a real pseudo-terminal: tmux runs ralph in a pane of a given
// width and capture-pane reads the screen as a person sees it (after every cursor move and
// clear), not the byte stream. tmux also rewraps lines on resize, like most terminals today.

const STATUS = '⋯ iteration';
let server: string | undefined;

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', server!, '-f', '/dev/null', ...args], { encoding: 'utf8' });
}

/** The visible screen, one string per row, trailing blanks removed. */
function screen(): string[] {
  return tmux('capture-pane', '-p', '-t', 'ralph')
    .split('\n')
    .map((row) => row.trimEnd());
}

const statusRows = () => screen().filter((row) => row.includes(STATUS));

/** Starts ralph in a detached tmux session `columns` wide; the agent works until interrupted. */
async function startRalph(repo: Repo, columns: number): Promise<void> {
  server = `ralph-test-${randomBytes(4).toString('hex')}`;
  await repo.steps([{ hang: true }]);
  const env = [
    `PATH=${FAKE_BIN_DIR}${delimiter}${process.env.PATH ?? ''}`,
    `RALPH_AGENT_SCRIPT=${repo.script}`,
    'RALPH_SKIP_REVIEW=1',
    'IS_SANDBOX=1',
    'NO_COLOR=1',
    'TERM=xterm-256color',
    // capture-pane shows wide characters as wide only in a UTF-8 locale.
    'LANG=C.UTF-8',
  ];
  const command = `env -u CI -u GITHUB_ACTIONS ${env.map((pair) => `'${pair}'`).join(' ')} '${process.execPath}' '${RALPH_BIN}' run --quiet --max-iterations 1; echo "ralph exited $?"; sleep 600`;
  tmux('new-session', '-d', '-s', 'ralph', '-x', String(columns), '-y', '12', '-c', repo.root, command);
  await waitFor(() => statusRows().length > 0, 30_000);
}

function resize(columns: number): void {
  tmux('resize-window', '-t', 'ralph', '-x', String(columns), '-y', '12');
}

afterEach(() => {
  if (server) execFileSync('tmux', ['-L', server, 'kill-server'], { stdio: 'ignore' });
  server = undefined;
});

describe('the live status line in a real terminal', () => {
  it('at 40 columns is cut with … to fit, is redrawn in place every second, and never leaves a stale copy', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await startRalph(repo, 40);
    // Wait for a redraw that shows a later elapsed time: each redraw replaced the last.
    await waitFor(() => statusRows().some((row) => /· [2-9]s/.test(row)), 30_000);
    const rows = statusRows();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatch(/…$/);
    expect(displayWidth(rows[0]!)).toBeLessThan(40);

    tmux('send-keys', '-t', 'ralph', 'C-c');
    await waitFor(() => screen().some((row) => row.startsWith('ralph exited')), 30_000);
    expect(screen().find((row) => row.startsWith('ralph exited'))).toBe('ralph exited 130');
    // The run ended: the status line is gone, and no copy of it stayed behind.
    expect(statusRows()).toEqual([]);
  });

  it('at 120 columns shows the whole line, and after resizes to 30 and back shows exactly one line that fits', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await startRalph(repo, 120);
    await waitFor(() => statusRows().some((row) => row.endsWith('tool calls')), 30_000);
    expect(statusRows()).toHaveLength(1);

    resize(30);
    await waitFor(() => statusRows().length === 1 && statusRows()[0]!.endsWith('…'), 30_000);
    // tmux rewrapped the old 45-column line onto two rows; the redraw cleared both.
    expect(screen().filter((row) => /tool calls|^\d+s · \d+ tool/.test(row))).toEqual([]);
    expect(displayWidth(statusRows()[0]!)).toBeLessThan(30);

    resize(120);
    await waitFor(() => statusRows().some((row) => row.endsWith('tool calls')), 30_000);
    expect(statusRows()).toHaveLength(1);

    tmux('send-keys', '-t', 'ralph', 'C-c');
    await waitFor(() => screen().some((row) => row.startsWith('ralph exited')), 30_000);
    expect(statusRows()).toEqual([]);
  });
});
