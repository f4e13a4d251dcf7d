import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runGates, type RunGatesOptions } from '../../../src/gates/run-gates.js';
import type { GateOutcome, GateSpec } from '../../../src/gates/types.js';
import { gateEnvironment } from '../../../src/run-lifecycle/agent-environment.js';

let root: string;
let logs: string;
beforeEach(async () => {
  root = await realpath(await mkdtemp(join(tmpdir(), 'ralph-gates-')));
  logs = join(root, 'ralph', 'logs');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const gate = (name: string, command: string, extra: Partial<GateSpec> = {}): GateSpec => ({
  name,
  command,
  timeoutMs: 60_000,
  ...extra,
});
const options = (extra: Partial<RunGatesOptions> = {}): RunGatesOptions => ({
  cwd: root,
  logsDir: logs,
  iteration: 7,
  env: gateEnvironment({ ...process.env, SHELL: '/bin/bash' }),
  request: 'COMPLETE claimed in iteration 7',
  ...extra,
});

/** Whether a process is running; a zombie is dead, only not yet reaped. */
function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

describe('runGates', () => {
  it('passes when every gate exits 0, logging each one’s output and writing no event', async () => {
    const events: string[] = [];
    const report = await runGates(
      [gate('build', 'echo built'), gate('tests', 'cat; echo "all green"', { after: 'build' })],
      options({
        onGateStart: (name) => events.push(`start ${name}`),
        onGateEnd: (outcome) => events.push(`end ${outcome.name} ${outcome.status}`),
      }),
    );
    expect(report.passed).toBe(true);
    expect(report.event).toBeUndefined();
    expect(report.outcomes.map((outcome) => [outcome.name, outcome.status])).toEqual([
      ['build', 'passed'],
      ['tests', 'passed'],
    ]);
    expect(events).toEqual(['start build', 'end build passed', 'start tests', 'end tests passed']);
    expect(await readFile(join(logs, 'gates-007-tests.log'), 'utf8')).toBe('all green\n');
    expect(existsSync(join(logs, 'gates-007.json'))).toBe(false);
  });

  it('passes with no gates at all', async () => {
    expect(await runGates([], options())).toEqual({ passed: true, outcomes: [] });
  });

  it('fails with details from the output, relative to the repository, and writes the event as JSON', async () => {
    const command = `echo "Found errors:"; echo "$PWD/src/a.ts(3,9): error TS2322: Type 'string' is not assignable to type 'number'." >&2; exit 2`;
    const report = await runGates([gate('typecheck', command)], options());
    expect(report.passed).toBe(false);
    expect(report.outcomes[0]).toMatchObject({
      name: 'typecheck',
      status: 'failed',
      exitCode: 2,
      timedOut: false,
      logPath: join(logs, 'gates-007-typecheck.log'),
      details: ["src/a.ts(3,9): error TS2322: Type 'string' is not assignable to type 'number'."],
    });
    expect(report.event).toMatchObject({
      originalRequest: 'COMPLETE claimed in iteration 7',
      iteration: 7,
      blockedBy: ['typecheck'],
      summary: 'typecheck failed',
      details: ["src/a.ts(3,9): error TS2322: Type 'string' is not assignable to type 'number'."],
      gates: [
        { name: 'typecheck', command, status: 'failed', exitCode: 2, logPath: 'ralph/logs/gates-007-typecheck.log' },
      ],
    });
    expect(report.eventPath).toBe(join(logs, 'gates-007.json'));
    expect(JSON.parse(await readFile(join(logs, 'gates-007.json'), 'utf8'))).toEqual(report.event);
  });

  it('keeps stdout and stderr in the order they were written', async () => {
    await runGates([gate('tests', 'echo one; echo two >&2; echo three; exit 1')], options());
    expect(await readFile(join(logs, 'gates-007-tests.log'), 'utf8')).toBe('one\ntwo\nthree\n');
  });

  it('says so when a failing gate printed nothing', async () => {
    const report = await runGates([gate('audit', 'exit 3')], options());
    expect(report.outcomes[0]).toMatchObject({
      exitCode: 3,
      details: ['exited with code 3 without printing anything'],
    });
  });

  it('skips the gates after one that failed, and the gates after those, but runs the rest', async () => {
    const ended: GateOutcome[] = [];
    const report = await runGates(
      [
        gate('build', 'echo "main.c:4:26: error: expected ‘;’ before ‘return’"; exit 1'),
        gate('tests', 'echo ran > tests-ran', { after: 'build' }),
        gate('e2e', 'echo ran > e2e-ran', { after: 'tests' }),
        gate('lint', 'echo clean'),
      ],
      options({ onGateEnd: (outcome) => ended.push(outcome) }),
    );
    expect(
      report.outcomes.map((outcome) =>
        outcome.status === 'skipped' ? `${outcome.name}: ${outcome.reason}` : `${outcome.name}: ${outcome.status}`,
      ),
    ).toEqual([
      'build: failed',
      'tests: after build, which failed',
      'e2e: after tests, which was skipped',
      'lint: passed',
    ]);
    expect(ended).toEqual(report.outcomes);
    expect(existsSync(join(root, 'tests-ran'))).toBe(false);
    expect(existsSync(join(root, 'e2e-ran'))).toBe(false);
    expect(report.event?.details).toEqual(['main.c:4:26: error: expected ‘;’ before ‘return’']);
    expect(report.event?.gates.map((status) => status.status)).toEqual(['failed', 'skipped', 'skipped', 'passed']);
  });

  it('fails a gate that runs past its timeout and kills everything it started', async () => {
    const report = await runGates(
      [gate('tests', 'sleep 30 & echo $! > grandchild.pid; echo started; sleep 30', { timeoutMs: 300 })],
      options(),
    );
    const grandchild = Number(await readFile(join(root, 'grandchild.pid'), 'utf8'));
    expect(report.outcomes[0]).toMatchObject({
      status: 'failed',
      timedOut: true,
      exitCode: null,
      details: ['timed out after 300ms', 'started'],
    });
    expect(isRunning(grandchild)).toBe(false);
    expect(report.event?.gates[0]).toMatchObject({ status: 'failed', timedOut: true });
  });

  it('kills what a gate left running after it exited', async () => {
    await runGates([gate('build', 'sleep 30 & echo $! > leftover.pid')], options());
    expect(isRunning(Number(await readFile(join(root, 'leftover.pid'), 'utf8')))).toBe(false);
  });

  it('streams a huge output to the log and still keeps at most 20 details', async () => {
    const report = await runGates([gate('tests', 'yes | head -c 50000000; exit 1')], options());
    expect((await stat(join(logs, 'gates-007-tests.log'))).size).toBe(50_000_000);
    const outcome = report.outcomes[0];
    expect(outcome?.status).toBe('failed');
    expect(outcome?.status === 'failed' && outcome.details).toEqual(Array.from({ length: 20 }, () => 'y'));
    expect(report.event?.details.length).toBeLessThanOrEqual(20);
  });

  it('stops the running gate when ralph is interrupted, skips the rest and writes no event', async () => {
    const controller = new AbortController();
    const report = await runGates(
      [gate('tests', 'sleep 30 & echo $! > child.pid; wait'), gate('lint', 'echo lint')],
      // Abort once the gate has started its background child, so there is something to kill.
      options({
        signal: controller.signal,
        onGateStart: () => void waitForFile(join(root, 'child.pid')).then(() => controller.abort()),
      }),
    );
    expect(report).toMatchObject({ passed: false, interrupted: true });
    expect(report.outcomes[0]).toMatchObject({
      status: 'failed',
      interrupted: true,
      details: ['ralph was interrupted'],
    });
    expect(report.outcomes[1]).toEqual({ name: 'lint', status: 'skipped', reason: 'ralph was interrupted' });
    expect(report.event).toBeUndefined();
    expect(existsSync(join(logs, 'gates-007.json'))).toBe(false);
    expect(isRunning(Number(await readFile(join(root, 'child.pid'), 'utf8')))).toBe(false);
  });

  describe("in a place of its own (the agent's sandbox)", () => {
    /**
     * A place that runs the command through /bin/sh with PLACE set, and records its stops (whether
     * each was given a second Ctrl-C's signal); `problem` is what a failed stop says.
     */
    function place(problem?: string) {
      const stops: string[] = [];
      return {
        stops,
        place: {
          label: 'the box',
          launch: (command: string) => ({ file: '/bin/sh', args: ['-c', `PLACE=inside; export PLACE; ${command}`] }),
          stop: async (force?: AbortSignal) => {
            stops.push(force ? 'stop, forced by a signal' : 'stop');
            return problem;
          },
        },
      };
    }

    it('runs each command as the place launches it, never as the host shell does', async () => {
      const { place: inside, stops } = place();
      const report = await runGates(
        [gate('tests', 'test "$PLACE" = inside && echo "ran $PLACE"')],
        options({ env: gateEnvironment({ ...process.env, SHELL: join(root, 'no-such-shell') }), place: inside }),
      );
      expect(report.passed).toBe(true);
      expect(await readFile(join(logs, 'gates-007-tests.log'), 'utf8')).toBe('ran inside\n');
      // A gate that ended by itself leaves the place as it is.
      expect(stops).toEqual([]);
    });

    it('stops the place when ralph ends a gate there: on its timeout and on an interrupt', async () => {
      const timed = place();
      const late = await runGates([gate('tests', 'sleep 30', { timeoutMs: 300 })], options({ place: timed.place }));
      expect(late.outcomes[0]).toMatchObject({ status: 'failed', timedOut: true });
      expect(timed.stops).toEqual(['stop']);

      const interrupted = place();
      const controller = new AbortController();
      const stopped = await runGates(
        [gate('tests', 'echo started > started.txt; sleep 30')],
        options({
          place: interrupted.place,
          signal: controller.signal,
          onGateStart: () => void waitForFile(join(root, 'started.txt')).then(() => controller.abort()),
        }),
      );
      expect(stopped).toMatchObject({ passed: false, interrupted: true });
      expect(interrupted.stops).toEqual(['stop']);
    });

    it('skips the gates after one that timed out there, since the place was stopped with it', async () => {
      const { place: box } = place();
      const report = await runGates(
        [gate('tests', 'sleep 30', { timeoutMs: 300 }), gate('lint', 'echo lint > lint.txt')],
        options({ place: box }),
      );
      expect(report.outcomes[1]).toEqual({
        name: 'lint',
        status: 'skipped',
        reason: 'tests timed out in the box, which ralph then stops',
      });
      expect(existsSync(join(root, 'lint.txt'))).toBe(false);
    });

    it("hands the place a second Ctrl-C, and says in the gate's log when it could not be stopped", async () => {
      const force = new AbortController();
      let gaveUp = false;
      const box = {
        label: 'the box',
        launch: (command: string) => ({ file: '/bin/sh', args: ['-c', command] }),
        // A stop that hangs until the second Ctrl-C, which the test sends once the stop began.
        stop: (signal?: AbortSignal) =>
          new Promise<string | undefined>((resolve) => {
            const timer = setTimeout(() => resolve(undefined), 10_000);
            signal?.addEventListener('abort', () => {
              clearTimeout(timer);
              gaveUp = true;
              resolve('could not stop the sandbox box: ralph stopped waiting for it');
            });
            force.abort();
          }),
      };
      const report = await runGates(
        [gate('tests', 'echo started; sleep 30', { timeoutMs: 300 })],
        options({ place: box, force: force.signal }),
      );
      expect(report.outcomes[0]).toMatchObject({ status: 'failed', timedOut: true });
      expect(gaveUp).toBe(true);
      expect(await readFile(join(logs, 'gates-007-tests.log'), 'utf8')).toContain(
        '[ralph] could not stop the sandbox box: ralph stopped waiting for it',
      );
    });

    it("names the place's program when it cannot be started", async () => {
      const report = await runGates(
        [gate('tests', 'true')],
        options({
          place: {
            label: 'the box',
            launch: () => ({ file: join(root, 'no-docker'), args: [] }),
            stop: async () => undefined,
          },
        }),
      );
      const outcome = report.outcomes[0];
      expect(outcome?.status === 'failed' && outcome.details[0]).toMatch(/^could not start .*no-docker: /);
    });
  });

  it('runs the command with the shell named by SHELL', async () => {
    const report = await runGates(
      [gate('tests', 'true')],
      options({ env: gateEnvironment({ ...process.env, SHELL: join(root, 'no-such-shell') }) }),
    );
    expect(report.outcomes[0]).toMatchObject({ status: 'failed', exitCode: null });
    const outcome = report.outcomes[0];
    expect(outcome?.status === 'failed' && outcome.details[0]).toMatch(/^could not start .*no-such-shell: /);
  });

  it.each([
    ['a NUL byte', 'echo a\0b'],
    ['E2BIG', `echo ${'x'.repeat(200 * 1024)}`],
  ])(
    'fails a gate whose command cannot even be passed to the shell (%s), instead of throwing',
    async (_cause, command) => {
      const report = await runGates([gate('tests', command)], options());
      const outcome = report.outcomes[0];
      expect(outcome).toMatchObject({ status: 'failed', exitCode: null });
      expect(outcome?.status === 'failed' && outcome.details[0]).toMatch(/^could not start \/bin\/bash: /);
    },
  );

  it('never overwrites the files of an earlier run with the same iteration number', async () => {
    await runGates([gate('tests', 'echo first; exit 1')], options({ request: 'start-of-run check' }));
    const second = await runGates([gate('tests', 'echo second; exit 1')], options());
    expect(await readFile(join(logs, 'gates-007-tests.log'), 'utf8')).toBe('first\n');
    expect(second.outcomes[0]).toMatchObject({ logPath: join(logs, 'gates-007.2-tests.log') });
    expect(second.eventPath).toBe(join(logs, 'gates-007.2.json'));
    expect(JSON.parse(await readFile(join(logs, 'gates-007.json'), 'utf8')).originalRequest).toBe('start-of-run check');
  });
});

/** Resolves once the file exists with content (the gate's shell wrote it). */
async function waitForFile(path: string): Promise<void> {
  while (!existsSync(path) || (await readFile(path, 'utf8')).trim() === '')
    await new Promise((resolve) => setTimeout(resolve, 20));
}
