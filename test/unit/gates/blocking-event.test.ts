import { describe, expect, it } from 'vitest';
import { buildBlockingEvent } from '../../../src/gates/blocking-event.js';
import type { GateOutcome, GateSpec } from '../../../src/gates/types.js';

const spec = (name: string, command = `run ${name}`): GateSpec => ({ name, command, timeoutMs: 90_000 });
const failed = (name: string, count: number): GateOutcome => ({
  name,
  status: 'failed',
  exitCode: 2,
  timedOut: false,
  durationMs: 10,
  logPath: `/repo/ralph/logs/gates-004-${name}.log`,
  details: Array.from({ length: count }, (_, index) => `${name} problem ${index + 1}`),
});

describe('buildBlockingEvent', () => {
  it('holds the request, who blocked it, a summary, details, suggestions and every gate with a repo-relative log path', () => {
    const event = buildBlockingEvent({
      request: 'COMPLETE claimed in iteration 4',
      iteration: 4,
      specs: [spec('build', 'npm run build'), spec('tests', 'npm test')],
      outcomes: [
        {
          name: 'build',
          status: 'passed',
          exitCode: 0,
          durationMs: 5,
          logPath: '/repo/ralph/logs/gates-004-build.log',
        },
        failed('tests', 2),
      ],
      root: '/repo',
    });
    expect(event).toEqual({
      originalRequest: 'COMPLETE claimed in iteration 4',
      iteration: 4,
      blockedBy: ['tests'],
      summary: 'tests failed',
      details: ['tests problem 1', 'tests problem 2'],
      suggestions: expect.arrayContaining(['Read the full log: ralph/logs/gates-004-tests.log']),
      gates: [
        {
          name: 'build',
          command: 'npm run build',
          status: 'passed',
          exitCode: 0,
          durationMs: 5,
          logPath: 'ralph/logs/gates-004-build.log',
        },
        {
          name: 'tests',
          command: 'npm test',
          status: 'failed',
          exitCode: 2,
          timedOut: false,
          durationMs: 10,
          logPath: 'ralph/logs/gates-004-tests.log',
        },
      ],
    });
  });

  it('shares the 20 details between failed gates so a noisy one leaves room for the others', () => {
    const event = buildBlockingEvent({
      request: 'COMPLETE claimed in iteration 4',
      iteration: 4,
      specs: [spec('lint'), spec('typecheck'), spec('tests')],
      outcomes: [failed('lint', 30), failed('typecheck', 2), failed('tests', 30)],
      root: '/repo',
    });
    expect(event.details).toHaveLength(20);
    expect(event.details.filter((detail) => detail.startsWith('[typecheck] '))).toHaveLength(2);
    expect(event.details.filter((detail) => detail.startsWith('[lint] '))).toHaveLength(9);
    expect(event.details.filter((detail) => detail.startsWith('[tests] '))).toHaveLength(9);
    expect(event.details[0]).toBe('[lint] lint problem 1');
  });
});
