import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive, makeRepo, runRalph, type Repo } from '../helpers/e2e.js';

/** A tests gate that fails, vitest-style, until fixed.txt exists. */
const TESTS_GATE = {
  name: 'tests',
  command:
    'if [ -f fixed.txt ]; then echo "all tests pass"; else echo " FAIL  test/api.test.ts > creates a user"; echo "AssertionError: expected 500 to be 201"; exit 1; fi',
};

async function configure(repo: Repo, config: unknown): Promise<void> {
  await writeFile(join(repo.root, 'ralph/config.json'), JSON.stringify(config));
}

describe('ralph run: quality gates', () => {
  it('rejects a COMPLETE the tests gate fails, hands the agent the blocking event, and ends 0 once it is fixed', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await configure(repo, { gates: [TESTS_GATE] });
    await repo.steps([
      { implement: true, completeWhenDone: true },
      { files: { 'fixed.txt': 'yes' }, commit: true, say: '<promise>COMPLETE</promise>' },
    ]);
    const result = await runRalph(repo, ['run']);
    expect(result.code).toBe(0);
    expect(repo.calls()).toBe(2);
    expect(result.stdout).toMatch(/✗ tests failed \(exit 1, .*\) — ralph\/logs\/gates-001-tests.log/);
    expect(result.stdout).toContain('✓ tests passed');
    const prompt = repo.call(2).prompt;
    expect(prompt).toContain('## Completion Blocked: tests failed');
    expect(prompt).toContain('Your `COMPLETE` request was blocked.');
    expect(prompt).toContain('### Issues Found');
    expect(prompt).toContain('test/api.test.ts > creates a user');
    expect(prompt).toContain('### Gate Status\n[ ] tests: failed');
    expect(repo.read('ralph/logs/gates-001-tests.log')).toContain('AssertionError: expected 500 to be 201');
    expect(JSON.parse(repo.read('ralph/logs/gates-001.json'))).toMatchObject({ blockedBy: ['tests'] });
  });

  it('stops with exit 4 after three rejected claims, printing the last blocking event', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await configure(repo, { gates: [TESTS_GATE] });
    await repo.steps([
      { implement: true, completeWhenDone: true },
      { commit: true, say: '<promise>COMPLETE</promise>' },
    ]);
    const result = await runRalph(repo, ['run']);
    expect(result.code).toBe(4);
    expect(repo.calls()).toBe(3);
    expect(repo.lastRun()).toMatchObject({ reason: 'quality_gate_exhausted', exitCode: 4 });
    expect(result.stdout).toContain('Completion Blocked: tests failed');
  });

  it('stops a gate still running when --max-runtime is up, skips the rest, and ends max_runtime', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const pidFile = join(repo.root, 'gate.pid');
    await configure(repo, {
      gates: [
        { name: 'slow', command: `echo $$ > ${pidFile}; exec sleep 120`, timeout: '10m' },
        { name: 'lint', command: 'true' },
      ],
    });
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const started = Date.now();
    const result = await runRalph(repo, ['run', '--max-runtime', '5s']);
    expect(result.code).toBe(1);
    expect(repo.lastRun()).toMatchObject({ reason: 'max_runtime', exitCode: 1 });
    expect(result.stdout).toMatch(/■ slow stopped: --max-runtime is up \(.*\), no verdict/);
    expect(result.stdout).toContain('~ lint skipped (--max-runtime is up)');
    // Not the gate's own ten minutes: the run's five seconds, and the time to end it.
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(isAlive(Number(repo.read('gate.pid')))).toBe(false);
  });

  it('Ctrl-C during a gate stops it, says so, and names the gate among what a second one kills', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const pidFile = join(repo.root, 'gate.pid');
    await configure(repo, {
      gates: [{ name: 'slow', command: `echo $$ > ${pidFile}; exec sleep 120`, timeout: '10m' }],
    });
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    let poll: NodeJS.Timeout | undefined;
    const result = await runRalph(repo, ['run'], {
      onStart: (child) => {
        poll = setInterval(() => {
          if (!repo.exists('gate.pid') || repo.read('gate.pid').trim() === '') return;
          clearInterval(poll);
          child.kill('SIGINT');
        }, 100);
      },
    }).finally(() => clearInterval(poll));
    expect(result.code).toBe(130);
    expect(result.stdout).toContain('SIGINT: stopping (again to kill the agent or gate at once)…');
    expect(result.stdout).toMatch(/■ slow stopped: ralph was interrupted \(.*\), no verdict/);
    expect(result.stdout).not.toContain('✗ slow failed');
    expect(isAlive(Number(repo.read('gate.pid')))).toBe(false);
  });

  it('skips the gates with --no-gates', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await configure(repo, { gates: [TESTS_GATE] });
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run', '--no-gates']);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('quality gates');
  });

  it('skips a gate whose after-dependency failed', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await configure(repo, {
      gates: [
        {
          name: 'build',
          command: 'echo "src/x.ts(3,7): error TS2322: Type string is not assignable to type number."; exit 2',
        },
        { name: 'tests', command: 'echo ran > tests-ran.txt', after: 'build' },
      ],
    });
    await repo.steps([{ implement: true, completeWhenDone: true }, { commit: true }]);
    const result = await runRalph(repo, ['run', '--max-iterations', '2']);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('~ tests skipped (after build, which failed)');
    expect(repo.exists('tests-ran.txt')).toBe(false);
    const prompt = repo.call(2).prompt;
    expect(prompt).toContain('src/x.ts(3,7): error TS2322');
    expect(prompt).toContain('[~] tests: skipped');
  });

  it('checks the gates when every story already passes: passing gates end the run with no agent call', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1', passes: true }] });
    await configure(repo, { gates: [{ name: 'tests', command: 'true' }] });
    const result = await runRalph(repo, ['run']);
    expect(result.code).toBe(0);
    expect(repo.calls()).toBe(0);
    expect(result.stdout).toContain('✓ tests passed');
  });

  it('hands a failing start-of-run check to the first iteration', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1', passes: true }] });
    await configure(repo, { gates: [TESTS_GATE] });
    await repo.steps([{ files: { 'fixed.txt': 'yes' }, commit: true, say: '<promise>COMPLETE</promise>' }]);
    const result = await runRalph(repo, ['run']);
    expect(result.code).toBe(0);
    expect(repo.call(1).prompt).toContain('Completion Blocked: tests failed');
    expect(await repo.logs()).toContain('gates-001-tests.log');
  });

  it.each([
    [
      { gates: [{ name: 'tests', command: 'npm test', after: 'build' }] },
      'gate "tests" has after: "build", but no gate is named "build"',
    ],
    [
      {
        gates: [
          { name: 'tests', command: 'npm test', after: 'build' },
          { name: 'build', command: 'x' },
        ],
      },
      '"build" comes later in the list',
    ],
    [
      { gates: [{ name: 'tests', command: 'npm test', timeout: '10' }] },
      "gates[0].timeout: expected a duration like 45s, 90m, 2h or 1h30m, got '10'",
    ],
  ])('refuses a bad gate list with exit 64: %j', async (config, message) => {
    const repo = await makeRepo();
    await configure(repo, config);
    const result = await runRalph(repo, ['run']);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain(message);
  });
});
