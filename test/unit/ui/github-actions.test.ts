import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { IterationRow } from '../../../src/loop/port-data.js';
import type { RunReport } from '../../../src/loop/run-report.js';
import {
  annotationFor,
  answerHint,
  escapeData,
  outputEntry,
  publishToGitHub,
  stepSummary,
} from '../../../src/ui/github-actions.js';
import { readOutputFile, STEP_SUMMARY_LIMIT_BYTES } from '../../helpers/workflow-commands.js';

const report: RunReport = {
  reason: 'blocked',
  exitCode: 2,
  detail: 'no API key | staging',
  iterations: 2,
  maxIterations: 10,
  firstIteration: 1,
  lastIteration: 2,
  startedAt: '2026-01-01T00:00:00.000Z',
  endedAt: '2026-01-01T00:10:00.000Z',
  durationSeconds: 600,
  avgIterationSeconds: 300,
  stories: { complete: 1, total: 3 },
  stuckIterations: 1,
  costUsd: 1.5,
  repetitions: {},
  strayProcessesEnded: 0,
};

const row: IterationRow = {
  iteration: 2,
  mode: 'review',
  durationSeconds: 300,
  commitHash: 'abcdef1234567890',
  storiesComplete: 1,
  storiesTotal: 3,
  stuckCount: 0,
  timestamp: '2026-01-01T00:10:00Z',
  outcome: 'ok',
  agentExitCode: 0,
  stats: { toolCalls: 4, invalidLines: 0, costUsd: 0.75 },
};

describe('GitHub Actions', () => {
  it('escapes workflow command data onto one line', () => {
    expect(escapeData('50% done\r\nnext')).toBe('50%25 done%0D%0Anext');
  });

  it('annotates non-zero endings as errors, BLOCKED as a warning, DECIDE as a notice, and success not at all', () => {
    expect(annotationFor('stuck', 4)).toBe('::error title=ralph stopped::ralph: STUCK (exit 4)');
    expect(annotationFor('blocked', 2, 'no key')).toBe(
      '::warning title=ralph is blocked::ralph: BLOCKED (exit 2): no key',
    );
    expect(annotationFor('decide', 3, 'A or B?\nsecond line')).toBe(
      '::notice title=ralph needs a decision::ralph: DECIDE (exit 3): A or B?%0Asecond line',
    );
    expect(annotationFor('complete', 0)).toBeUndefined();
  });

  it("adds the workflow's way to answer to a BLOCKED or DECIDE only, and takes it only as one short line", () => {
    const hint = 'run this workflow again with the answer input';
    expect(annotationFor('blocked', 2, 'no key', hint)).toBe(
      `::warning title=ralph is blocked::ralph: BLOCKED (exit 2): no key — ${hint}`,
    );
    expect(annotationFor('stuck', 4, undefined, hint)).toBe('::error title=ralph stopped::ralph: STUCK (exit 4)');
    expect(answerHint({ RALPH_ANSWER_HINT: `  ${hint} ` })).toBe(hint);
    expect(answerHint({ RALPH_ANSWER_HINT: 'one\nand another' })).toBeUndefined();
    expect(answerHint({ RALPH_ANSWER_HINT: 'x'.repeat(501) })).toBeUndefined();
    expect(answerHint({ RALPH_ANSWER_HINT: '' })).toBeUndefined();
    expect(answerHint({})).toBeUndefined();
    const summary = stepSummary(report, [row], hint);
    expect(summary).toContain(`| Next | resolve it, then ${hint}, saying what you did |`);
    expect(stepSummary(report, [row])).toContain('ralph answer --run');
  });

  it('writes the summary block as a table, the blocked reason and the iterations', () => {
    const summary = stepSummary(report, [row]);
    expect(summary).toContain('| Exit | BLOCKED (code 2) |');
    expect(summary).toContain('| Stories | 1/3 complete |');
    expect(summary).toContain('| Cost | $1.50 |');
    expect(summary).toContain('### Blocked\n\n```text\nno API key | staging\n```');
    expect(summary).toContain('| 2 | review | 5m 0s | abcdef1 | 1/3 | ok | $0.75 |');
  });

  it('stays far below the size the runner takes, however long the reason and the run', () => {
    const huge = { ...report, detail: `needs a human: ${'x'.repeat(400_000)}` };
    const rows = Array.from({ length: 2000 }, (_, index) => ({ ...row, iteration: index + 1 }));
    const summary = stepSummary(huge, rows);
    expect(Buffer.byteLength(summary)).toBeLessThan(STEP_SUMMARY_LIMIT_BYTES / 2);
    expect(summary).toContain('…\n```\n\n(cut here: `ralph/logs/last-run.json` holds it whole)');
    expect(summary).toContain('The last 300; the 1700 before them are in `ralph/logs/summary.csv`.');
    expect(summary).toContain('| 2000 | review |');
    expect(summary).not.toContain('| 1700 | review |');
  });
});

describe('outputEntry', () => {
  it('writes one line as name=value and anything else as a heredoc the runner reads back exactly', () => {
    expect(outputEntry('reason', 'blocked')).toBe('reason=blocked\n');
    const hostile = 'line one\nEOF\nreason=forged\n\r\nghadelimiter_x\n';
    const text = outputEntry('detail', hostile) + outputEntry('reason', 'blocked');
    expect(text).toMatch(/^detail<<ghadelimiter_[0-9a-f-]{36}\n/);
    expect(Object.fromEntries(readOutputFile(text))).toEqual({ detail: hostile, reason: 'blocked' });
  });
});

describe('the job summary shows the agent’s words as text, never as Markdown', () => {
  const hostile = [
    '<img src=x onerror=alert(1)> <details open>',
    '[click](https://evil.example) ![i](https://evil.example/i.png) https://evil.example',
    '| --- | --- |',
    '# Heading',
    '```',
    '</code></pre><script>x</script>',
    '\u001b]52;c;eA==\u0007',
  ].join('\n');

  it.each(['blocked', 'decide', 'stuck'] as const)('for a %s detail: one fenced block holds it whole', (reason) => {
    const summary = stepSummary({ ...report, reason, detail: hostile }, []);
    const fence = summary.match(/^(`{3,})text$/m)![1]!;
    const start = summary.indexOf(`${fence}text\n`) + fence.length + 5;
    const end = summary.indexOf(`\n${fence}\n`, start);
    // The fence is longer than any backtick run inside: nothing closes it early.
    expect(fence.length).toBe(4);
    expect(summary.slice(start, end)).toBe(hostile.replace('\u001b]52;c;eA==\u0007', '␛]52;c;eA==␇'));
    // Outside the block: only ralph's own Markdown.
    const outside = summary.slice(0, start) + summary.slice(end);
    for (const bad of ['<img', '<script', '](http', '\n# Heading', '\u001b']) expect(outside).not.toContain(bad);
  });
});

describe('publishToGitHub: files the agent can reach', () => {
  it('starts its outputs and its summary on a line of their own after a line the agent left unended', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ralph-gh-files-'));
    try {
      const env = { GITHUB_OUTPUT: join(dir, 'output'), GITHUB_STEP_SUMMARY: join(dir, 'summary.md') };
      await writeFile(env.GITHUB_OUTPUT, 'unterminated=x');
      await writeFile(env.GITHUB_STEP_SUMMARY, '# the agent was here');
      await publishToGitHub(env, report, [row]);
      const outputs = readOutputFile(await readFile(env.GITHUB_OUTPUT, 'utf8'));
      expect(outputs.get('reason')).toBe('blocked');
      expect(outputs.get('exit-code')).toBe('2');
      expect(outputs.get('unterminated')).toBe('x');
      expect(await readFile(env.GITHUB_STEP_SUMMARY, 'utf8')).toMatch(/^# the agent was here\n## /);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('writes the outputs even when the summary cannot be written, and names the file that failed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ralph-gh-files-'));
    try {
      const env = { GITHUB_OUTPUT: join(dir, 'output'), GITHUB_STEP_SUMMARY: join(dir, 'gone', 'summary.md') };
      const failure = await publishToGitHub(env, report, [row]).catch((error: unknown) => error);
      expect((failure as Error).message).toMatch(/^GITHUB_STEP_SUMMARY \(ENOENT/);
      expect(readOutputFile(await readFile(env.GITHUB_OUTPUT, 'utf8')).get('reason')).toBe('blocked');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
