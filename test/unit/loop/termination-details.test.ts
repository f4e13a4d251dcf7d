import { describe, expect, it } from 'vitest';
import { outcomeOf, wasStoppedByRalph } from '../../../src/loop/outcome.js';
import { detailOf, exitCodeFor, unreachable, type Ending } from '../../../src/loop/termination.js';
import { isoSeconds } from '../../../src/loop/time.js';
import type { AgentRun, Outcome } from '../../../src/loop/port-data.js';
import { CLAUDE_HINTS, setupFixHint } from '../../../src/agent/claude/hints.js';

describe('detailOf: the human detail of each ending', () => {
  it.each<[string, Ending, string | undefined]>([
    ['blocked: the reason as the agent wrote it', { reason: 'blocked', message: 'no API key' }, 'no API key'],
    [
      'decide: the question as the agent wrote it',
      { reason: 'decide', question: 'REST or GraphQL?' },
      'REST or GraphQL?',
    ],
    [
      'stuck: how many iterations made no commit',
      { reason: 'stuck', stuckCount: 3 },
      '3 consecutive iterations without a new commit',
    ],
    [
      'max_runtime: the limit as the user would write it',
      { reason: 'max_runtime', limitMs: 90 * 60_000 },
      'the run used its 1h30m --max-runtime',
    ],
    [
      'max_cost: spent and limit to the cent',
      { reason: 'max_cost', costUsd: 1.005, limitUsd: 1 },
      'spent $1.00 of the $1.00 --max-cost',
    ],
    [
      'max_cost: with cents',
      { reason: 'max_cost', costUsd: 2.456, limitUsd: 2.5 },
      'spent $2.46 of the $2.50 --max-cost',
    ],
    [
      'agent_failures: the count, then the last error output line by line',
      { reason: 'agent_failures', count: 3, lastError: ['Error: boom', '    at main'] },
      'the agent failed 3 times in a row; its last error output:\nError: boom\n    at main',
    ],
    [
      'agent_auth: the message and how to log in',
      { reason: 'agent_auth', message: 'Invalid API key', hint: CLAUDE_HINTS.auth },
      'Invalid API key — log the agent in (run `claude` once, or set ANTHROPIC_API_KEY), then run again',
    ],
    [
      'agent_setup: the message and the fix',
      { reason: 'agent_setup', message: 'cannot run as root', hint: CLAUDE_HINTS.setup },
      `cannot run as root — ${setupFixHint()}`,
    ],
    [
      'usage_limit stopped on request: the message, the reset in UTC and its evidence, and what to do',
      {
        reason: 'usage_limit',
        message: "You've hit your limit",
        resetsAt: Date.parse('2025-06-16T03:00:00Z'),
        resetSource: 'event',
        why: 'stop_requested',
      },
      "You've hit your limit (resets 2025-06-16T03:00:00.000Z, read from the agent's rate_limit_event) — --on-usage-limit stop: run ralph again after 2025-06-16T03:00:00.000Z, or use --on-usage-limit wait",
    ],
    [
      'validation_failures: the count and the last rules broken',
      { reason: 'validation_failures', count: 3, last: 'stories removed from ralph/tasks.json: US-2' },
      "3 iterations in a row broke the loop's rules; the last: stories removed from ralph/tasks.json: US-2",
    ],
    [
      'quality_gate_exhausted: the count and why the last claim failed, then its blocking event without its trailing newline',
      {
        reason: 'quality_gate_exhausted',
        count: 3,
        event: '## Completion Blocked: tests, lint failed\n\nThe gates ran on the claim.\n\n',
      },
      '3 COMPLETE claims in a row were rejected by the quality gates (last: tests, lint failed)\n## Completion Blocked: tests, lint failed\n\nThe gates ran on the claim.',
    ],
    [
      'quality_gate_exhausted after one claim: no "in a row"',
      { reason: 'quality_gate_exhausted', count: 1, event: '## Completion Blocked: build failed\n' },
      '1 COMPLETE claim was rejected by the quality gates (last: build failed)\n## Completion Blocked: build failed',
    ],
    ['interrupted: the signal', { reason: 'interrupted', signal: 'SIGTERM' }, 'received SIGTERM'],
    ['complete: nothing to add', { reason: 'complete' }, undefined],
    ['max_iterations: nothing to add', { reason: 'max_iterations' }, undefined],
  ])('%s', (_name, termination, detail) => {
    expect(detailOf(termination)).toBe(detail);
  });
});

describe('exitCodeFor: the documented exit code of each ending', () => {
  it.each<[Ending, number]>([
    [{ reason: 'complete' }, 0],
    [{ reason: 'max_iterations' }, 1],
    [{ reason: 'max_runtime', limitMs: 1 }, 1],
    [{ reason: 'max_cost', costUsd: 1, limitUsd: 1 }, 1],
    [{ reason: 'usage_limit', message: 'x', resetSource: 'backoff', why: 'stop_requested' }, 1],
    [{ reason: 'blocked', message: 'x' }, 2],
    [{ reason: 'decide', question: 'x' }, 3],
    [{ reason: 'stuck', stuckCount: 3 }, 4],
    [{ reason: 'agent_failures', count: 3, lastError: [] }, 4],
    [{ reason: 'validation_failures', count: 3, last: 'x' }, 4],
    [{ reason: 'quality_gate_exhausted', count: 3, event: 'x' }, 4],
    [{ reason: 'agent_auth', message: 'x', hint: 'the fix' }, 64],
    [{ reason: 'agent_setup', message: 'x', hint: 'the fix' }, 64],
    [{ reason: 'interrupted', signal: 'SIGHUP' }, 129],
    [{ reason: 'interrupted', signal: 'SIGINT' }, 130],
    [{ reason: 'interrupted', signal: 'SIGTERM' }, 143],
  ])('%j exits %i', (termination, code) => {
    expect(exitCodeFor(termination)).toBe(code);
  });

  it('an ending the code does not know is an error naming it, not a silent exit code', () => {
    const unknown = { reason: 'vanished' } as unknown as Ending;
    expect(() => exitCodeFor(unknown)).toThrow('unreachable: {"reason":"vanished"}');
    expect(() => detailOf(unknown)).toThrow('unreachable: {"reason":"vanished"}');
    expect(() => unreachable('x' as never)).toThrow('unreachable: "x"');
  });
});

describe('outcomeOf: why an iteration ended, for the summary.csv outcome column', () => {
  const run = (overrides: Partial<AgentRun>): AgentRun => ({
    exitCode: 0,
    signals: { complete: false, invalid: [] },
    truncated: false,
    stats: { toolCalls: 0, invalidLines: 0 },
    ...overrides,
  });

  it.each<[string, Partial<AgentRun>, Outcome]>([
    ['a clean run', {}, 'ok'],
    ['a cut-off stream', { truncated: true }, 'truncated'],
    ['an agent error', { failure: { kind: 'error', lines: [] }, truncated: true }, 'agent_error'],
    ['a login failure', { failure: { kind: 'auth', message: 'x', hint: 'the fix' } }, 'agent_auth'],
    ['the root refusal', { failure: { kind: 'setup', message: 'x', hint: 'the fix' } }, 'agent_setup'],
    ['a usage limit', { failure: { kind: 'usage_limit', message: 'x' } }, 'usage_limit'],
    [
      'an interrupt, before any failure',
      { stoppedBy: { cause: 'interrupt', signal: 'SIGINT' }, failure: { kind: 'error', lines: [] } },
      'interrupted',
    ],
    ['the iteration timeout', { stoppedBy: { cause: 'timeout' }, truncated: true }, 'timeout'],
    ['the idle timeout', { stoppedBy: { cause: 'idle_timeout' } }, 'idle_timeout'],
    ['the run deadline', { stoppedBy: { cause: 'max_runtime' } }, 'max_runtime'],
  ])('%s', (_name, overrides, outcome) => {
    expect(outcomeOf(run(overrides))).toBe(outcome);
  });

  it('an unknown failure kind is an error naming it', () => {
    expect(() => outcomeOf(run({ failure: { kind: 'odd' } as never }))).toThrow('unreachable: {"kind":"odd"}');
  });
});

describe('wasStoppedByRalph: the outcomes ralph caused, which no counter holds against the agent', () => {
  it.each<[Outcome, boolean]>([
    ['timeout', true],
    ['idle_timeout', true],
    ['max_runtime', true],
    ['repetition', true],
    ['interrupted', true],
    ['ok', false],
    ['truncated', false],
    ['agent_error', false],
    ['agent_auth', false],
    ['agent_setup', false],
    ['usage_limit', false],
  ])('%s: %s', (outcome, stopped) => {
    expect(wasStoppedByRalph(outcome)).toBe(stopped);
  });
});

describe('isoSeconds', () => {
  it('writes UTC to the second, dropping the milliseconds', () => {
    expect(isoSeconds(Date.parse('2025-06-15T15:07:41.234Z'))).toBe('2025-06-15T15:07:41Z');
  });
});
