import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { RalphError } from '../../../src/errors.js';
import { ralphPaths } from '../../../src/files/paths.js';
import { withRecords } from '../../../src/files/record-paths.js';
import { noProgress } from '../../../src/loop/run-report.js';
import { monotonicMs } from '../../../src/process/monotonic-clock.js';
import { endingOfError, finishRun } from '../../../src/run-lifecycle/finish-run.js';
import { Screen } from '../../../src/ui/screen.js';
import { readAsRunner, readOutputFile } from '../../helpers/workflow-commands.js';

/** An OS error as node's fs raises it. */
function errno(code: string, message: string, path?: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: ${message}`), { code, ...(path ? { path } : {}) });
}

describe('endingOfError', () => {
  it('a RalphError ends the run by its kind, and is kept as the error to show', () => {
    const error = new RalphError('setup', 'ralph/tasks.json not found', 'run `ralph init`');
    expect(endingOfError(error)).toEqual({ ending: { reason: 'setup', message: 'ralph/tasks.json not found' }, error });
  });

  it('an OS error on a file (a full disk) is an io_error naming the file', () => {
    const { ending, error } = endingOfError(
      errno('ENOSPC', 'no space left on device, write', '/repo/ralph/logs/summary.csv'),
    );
    expect(ending.reason).toBe('io_error');
    expect(error?.kind).toBe('io');
    expect(error?.message).toContain('/repo/ralph/logs/summary.csv');
  });

  it("an OS error without a path still names ralph's files", () => {
    const { ending } = endingOfError(errno('EROFS', 'read-only file system, open'));
    expect(ending).toMatchObject({ reason: 'io_error' });
    expect((ending as { message: string }).message).toContain("one of ralph's files");
  });

  it('anything else is a bug in ralph: an internal_error, the bug kept to report', () => {
    const bug = new TypeError('undefined is not a function');
    expect(endingOfError(bug)).toEqual({
      ending: { reason: 'internal_error', message: 'TypeError: undefined is not a function' },
      bug,
    });
    expect(endingOfError('a thrown string\nwith a second line').ending).toEqual({
      reason: 'internal_error',
      message: 'a thrown string',
    });
  });
});

describe('finishRun after a bug under the lock', () => {
  const cleanup: string[] = [];
  afterEach(async () => {
    await Promise.all(cleanup.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('records it like every ending — last-run.json, summary, outputs, annotation — then says so in one line, the trace in the logs', async () => {
    const root = await mkdtemp(join(tmpdir(), 'ralph-finish-'));
    cleanup.push(root);
    const paths = withRecords(ralphPaths(root), join(root, '.git/ralph'));
    await mkdir(paths.logs, { recursive: true });
    await mkdir(join(root, '.git'));
    // The previous run's record, which CI scripts would otherwise read as this run's.
    await writeFile(paths.lastRun, JSON.stringify({ reason: 'complete', exitCode: 0 }));
    const output = join(root, 'github-output');
    await writeFile(output, '');
    const [stdout, stderr] = [collect(), collect()];
    const bug = new TypeError("Cannot read properties of undefined (reading 'id')");
    // As the run command does when anything throws under the lock.
    const end = { progress: noProgress(), rows: [], ...endingOfError(bug) };
    const code = await finishRun(end, {
      paths,
      out: new Screen(stdout.stream, { tty: false, timestamps: false, github: true, stderr: stderr.stream }),
      env: { GITHUB_OUTPUT: output },
      github: true,
      startedAt: Date.now(),
      startedMonotonicMs: monotonicMs(),
      firstIteration: 1,
      maxIterations: 5,
      strayProcessesEnded: 0,
    });
    expect(code).toBe(70);
    expect(JSON.parse(await readFile(paths.lastRun, 'utf8'))).toMatchObject({
      reason: 'internal_error',
      exitCode: 70,
      detail: "TypeError: Cannot read properties of undefined (reading 'id')",
    });
    expect(Object.fromEntries(readOutputFile(await readFile(output, 'utf8')))).toMatchObject({
      reason: 'internal_error',
      'exit-code': '70',
    });
    expect(readAsRunner(stdout.text()).obeyed.map((command) => command.name)).toContain('error');
    // One line, fenced from the runner (on Actions its words could be anyone's).
    const errors = readAsRunner(stderr.text());
    expect(errors.stopped).toBe(false);
    expect(errors.obeyed.map((command) => command.name)).toEqual(['stop-commands', 'resume']);
    const lines = stderr
      .text()
      .split('\n')
      .filter((line) => line !== '' && !line.startsWith('::'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^ralph: internal error: TypeError: Cannot read .* a bug in ralph, not in your project\. Please report it .*; its stack trace is in ralph\/logs\/internal-error\.log$/,
    );
    expect(await readFile(join(paths.logs, 'internal-error.log'), 'utf8')).toContain(bug.stack!);
  });
});

describe('finishRun: the durations by the monotonic clock', () => {
  const cleanup: string[] = [];
  afterEach(async () => {
    await Promise.all(cleanup.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  const startedAt = Date.parse('2026-03-01T12:00:00Z');
  const HOUR = 3_600_000;

  /** A run of two iterations that took `tookMs` by the monotonic clock, while the wall clock moved `wallMs`. */
  async function finish(tookMs: number, wallMs: number) {
    const root = await mkdtemp(join(tmpdir(), 'ralph-finish-'));
    cleanup.push(root);
    const paths = withRecords(ralphPaths(root), join(root, '.git/ralph'));
    await mkdir(paths.logs, { recursive: true });
    await mkdir(join(root, '.git'));
    const stdout = collect();
    const progress = { ...noProgress({ complete: 1, total: 1 }), iterations: 2 };
    await finishRun(
      {
        ending: { reason: 'complete' },
        progress,
        rows: [],
        loopRan: { taskList: 'tasks', attempts: 0, completeBefore: 0 },
      },
      {
        paths,
        out: new Screen(stdout.stream, { tty: false, timestamps: false, github: false, stderr: collect().stream }),
        env: {},
        github: false,
        startedAt,
        startedMonotonicMs: 1000,
        clock: { wall: () => startedAt + wallMs, monotonic: () => 1000 + tookMs },
        firstIteration: 1,
        maxIterations: 5,
        strayProcessesEnded: 0,
      },
    );
    const record = JSON.parse(await readFile(paths.lastRun, 'utf8')) as Record<string, unknown>;
    return { record, duration: /^ *Duration: *(.+)$/m.exec(stdout.text())?.[1]?.trim() };
  }

  it('after the wall clock was set back an hour: 90 s, never negative', async () => {
    const { record, duration } = await finish(90_000, 90_000 - HOUR);
    expect(record).toMatchObject({ durationSeconds: 90, avgIterationSeconds: 45 });
    expect(duration).toBe('1m 30s');
  });

  it('after the wall clock was set forward an hour: 5 s, not an hour', async () => {
    const { record, duration } = await finish(5_000, 5_000 + HOUR);
    expect(record).toMatchObject({ durationSeconds: 5, endedAt: new Date(startedAt + 5_000 + HOUR).toISOString() });
    expect(duration).toBe('5s');
  });
});

function collect() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stream, text: () => text };
}
