import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FAKE_BIN_DIR, makeRepo, RALPH_BIN, waitFor } from '../helpers/e2e.js';

/**
 * An agent that tries to take the terminal: the clipboard (OSC 52, once split across two writes),
 * the window title (OSC 0, OSC 2 in its blocked reason), a cursor move up and an erase over ralph's
 * header, a bare CR over its own line, and an 8-bit CSI.
 */
const HOSTILE_AGENT = `#!/bin/sh
if [ "$1" = "--version" ]; then echo "1.0.0 (hostile)"; exit 0; fi
cat > /dev/null
printf 'agent says hi\\n'
printf '\\033[2A\\033[2K\\033[1GERASED-HEADER\\n'
printf '\\033]52;c;UFdORUQ=\\007\\n'
printf '\\033]5'; sleep 0.2; printf '2;c;UFdORUQy\\007\\n'
printf '\\033]0;PWNED-TITLE\\007\\n'
printf 'visible text\\rOVERWRITTEN\\n'
printf '\\302\\2332J8-bit CSI\\n'
printf '<promise>BLOCKED:\\033]2;PWNED-REASON\\007the key \\033[31mis\\033[0m missing</promise>\\n'
`;

const socket = `ralph-test-${process.pid}`;
const tmux = (...args: string[]) =>
  execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8', env: tmuxEnv });
let tmuxEnv: NodeJS.ProcessEnv = process.env;

afterEach(() => {
  try {
    tmux('kill-server');
  } catch {
    // Already gone.
  }
});

describe('the terminal stays ralph’s (a real terminal emulator: tmux)', () => {
  it('shows the agent’s control sequences and never lets them reach the clipboard, the title or ralph’s lines', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1', title: 'First story' }] });
    const dir = await mkdtemp(join(tmpdir(), 'ralph-tty-'));
    const agent = join(dir, 'hostile-agent');
    await writeFile(agent, HOSTILE_AGENT);
    await chmod(agent, 0o755);
    // The agent then writes blocked.txt itself, as it may: `ralph status` shows it.
    const script = [
      `cd '${repo.root}'`,
      `'${process.execPath}' '${RALPH_BIN}' run --agent-bin '${agent}' --output text --max-iterations 1`,
      `echo "exit $?" > '${dir}/run-exit'`,
      `printf '\\033]52;c;U1RBVFVT\\007 \\033]0;PWNED-STATUS\\007 \\033[3A' > ralph/blocked.txt`,
      `'${process.execPath}' '${RALPH_BIN}' status`,
      `echo "exit $?" > '${dir}/status-exit'`,
      'sleep 600',
    ].join('\n');
    await writeFile(join(dir, 'launch.sh'), script);
    tmuxEnv = {
      ...process.env,
      PATH: `${FAKE_BIN_DIR}${delimiter}${process.env.PATH ?? ''}`,
      GIT_AUTHOR_NAME: 'Ralph Test',
      GIT_AUTHOR_EMAIL: 'test@ralph.invalid',
      GIT_COMMITTER_NAME: 'Ralph Test',
      GIT_COMMITTER_EMAIL: 'test@ralph.invalid',
      GIT_CEILING_DIRECTORIES: tmpdir(),
      RALPH_SKIP_REVIEW: '1',
      IS_SANDBOX: '1',
      CI: '',
      GITHUB_ACTIONS: '',
      NO_COLOR: '',
      TMUX: '',
    };
    delete tmuxEnv.NO_COLOR;
    delete tmuxEnv.CI;
    delete tmuxEnv.GITHUB_ACTIONS;
    delete tmuxEnv.TMUX;
    tmux('new-session', '-d', '-s', 'ralph', '-x', '160', '-y', '50', `sh '${join(dir, 'launch.sh')}'`);
    // tmux takes OSC 52 from a pane into its paste buffers, and OSC 0/2 into the pane's title.
    tmux('set-option', '-g', 'set-clipboard', 'on');
    tmux('set-option', '-g', 'history-limit', '5000');
    const titleBefore = tmux('display-message', '-p', '-t', 'ralph', '#{pane_title}');
    await waitFor(() => existsSync(join(dir, 'status-exit')), 40_000);

    expect(await readFile(join(dir, 'run-exit'), 'utf8')).toBe('exit 2\n');
    expect(await readFile(join(dir, 'status-exit'), 'utf8')).toBe('exit 0\n');
    const screen = tmux('capture-pane', '-p', '-J', '-S', '-', '-t', 'ralph');
    // Nothing reached the clipboard or the title.
    expect(tmux('list-buffers')).toBe('');
    const title = tmux('display-message', '-p', '-t', 'ralph', '#{pane_title}');
    expect(title).toBe(titleBefore);
    expect(title).not.toContain('PWNED');
    // ralph's own lines are still on screen: the cursor moves did not repaint them.
    expect(screen).toMatch(/── Iteration 1 \(1\/1\) · implement · US-1 First story/);
    expect(screen).toContain('Ralph Loop Summary');
    expect(screen).toContain('ralph status');
    // The agent's sequences are shown, not obeyed.
    expect(screen).toContain('agent says hi\n␛[2A␛[2K␛[1GERASED-HEADER');
    expect(screen).toContain('␛]52;c;UFdORUQ=␇');
    expect(screen).toContain('␛]52;c;UFdORUQy␇');
    expect(screen).toContain('␛]0;PWNED-TITLE␇');
    expect(screen).toContain('visible text␍OVERWRITTEN');
    expect(screen).toContain('␛[2J8-bit CSI');
    // The summary's reason, and status's view of the agent's own blocked.txt.
    expect(screen).toMatch(/Reason: +␛\]2;PWNED-REASON␇the key (\u001b\[31m)?is/);
    expect(screen).toContain('␛]52;c;U1RBVFVT␇ ␛]0;PWNED-STATUS␇ ␛[3A');
    // ralph wrote the agent's words into blocked.txt shown, before the agent's own overwrite: its log too.
    const log = await readFile(join(repo.root, 'ralph/logs/iteration-001.log'), 'utf8');
    expect(log).toContain('␛]52;c;UFdORUQy␇');
    expect(log).not.toContain('\u001b');
  });
});
