import { describe, expect, it } from 'vitest';
import { buildBlockingEvent } from '../../../src/gates/blocking-event.js';
import { formatBlockingEvent } from '../../../src/gates/format-event.js';
import type { GateOutcome, GateSpec } from '../../../src/gates/types.js';

const ROOT = '/repo';
const spec = (name: string, command: string, after?: string): GateSpec => ({
  name,
  command,
  timeoutMs: 600_000,
  ...(after ? { after } : {}),
});
const passed = (name: string): GateOutcome => ({
  name,
  status: 'passed',
  exitCode: 0,
  durationMs: 1200,
  logPath: `/repo/ralph/logs/gates-007-${name}.log`,
});
const failed = (name: string, details: string[], timedOut = false): GateOutcome => ({
  name,
  status: 'failed',
  exitCode: timedOut ? null : 1,
  timedOut,
  durationMs: 3400,
  logPath: `/repo/ralph/logs/gates-007-${name}.log`,
  details,
});
const skipped = (name: string, reason: string): GateOutcome => ({ name, status: 'skipped', reason });

describe('formatBlockingEvent', () => {
  it('renders the event in the shape the next prompt carries', () => {
    const specs = [spec('build', 'npm run build'), spec('tests', 'npm test'), spec('lint', 'npm run lint', 'build')];
    const event = buildBlockingEvent({
      request: 'COMPLETE claimed in iteration 7',
      iteration: 7,
      specs,
      outcomes: [
        passed('build'),
        failed('tests', ['test/api.test.ts > creates a user: expected 201, received 500']),
        skipped('lint', 'after build, which failed'),
      ],
      root: ROOT,
    });
    expect(formatBlockingEvent(event)).toBe(`## Completion Blocked: tests failed

Your \`COMPLETE\` request was blocked.

### Issues Found
- test/api.test.ts > creates a user: expected 201, received 500

### Suggested Actions
1. Review the failing test assertions
2. Check whether your recent changes broke behaviour the tests rely on; change a test only when the test itself is wrong
3. Run \`npm test\` and make it pass before claiming \`COMPLETE\` again
4. Read the full log: ralph/logs/gates-007-tests.log

### Gate Status
[x] build: passed
[ ] tests: failed
    Full log: ralph/logs/gates-007-tests.log
[~] lint: skipped (after build, which failed)
`);
  });

  it('names every failed gate in the heading and marks whose details are whose', () => {
    const event = buildBlockingEvent({
      request: 'COMPLETE claimed in iteration 3',
      iteration: 3,
      specs: [spec('build', 'make'), spec('tests', 'make test')],
      outcomes: [failed('build', ['main.c:4:26: error: expected ‘;’']), failed('tests', ['TestX: x_test.go:3: boom'])],
      root: ROOT,
    });
    const text = formatBlockingEvent(event);
    expect(text.split('\n')[0]).toBe('## Completion Blocked: build, tests failed');
    expect(text).toContain('- [build] main.c:4:26: error: expected ‘;’\n- [tests] TestX: x_test.go:3: boom\n');
    expect(text).toContain('[ ] build: failed\n    Full log: ralph/logs/gates-007-build.log\n[ ] tests: failed\n');
  });

  it('says what was checked when the agent made no claim', () => {
    const event = buildBlockingEvent({
      request: 'start-of-run check',
      iteration: 1,
      specs: [spec('tests', 'pytest')],
      outcomes: [failed('tests', ['x'])],
      root: ROOT,
    });
    expect(formatBlockingEvent(event)).toContain(
      "\nCompletion is blocked: the project's checks failed (start-of-run check).\n",
    );
  });

  it('marks a gate that timed out', () => {
    const event = buildBlockingEvent({
      request: 'COMPLETE claimed in iteration 2',
      iteration: 2,
      specs: [spec('tests', 'npm test')],
      outcomes: [failed('tests', ['timed out after 10m'], true)],
      root: ROOT,
    });
    const text = formatBlockingEvent(event);
    expect(text).toContain('- timed out after 10m\n');
    expect(text).toContain('[ ] tests: failed (timed out)\n');
    expect(text).toContain('1. Find what keeps `npm test` running past 10m');
  });

  it('shows at most 20 details even when handed more', () => {
    const event = buildBlockingEvent({
      request: 'COMPLETE claimed in iteration 1',
      iteration: 1,
      specs: [spec('tests', 'x')],
      outcomes: [failed('tests', ['a'])],
      root: ROOT,
    });
    const text = formatBlockingEvent({
      ...event,
      details: Array.from({ length: 30 }, (_, index) => `detail ${index}`),
    });
    expect(text.split('\n').filter((line) => line.startsWith('- detail'))).toHaveLength(20);
  });
});
