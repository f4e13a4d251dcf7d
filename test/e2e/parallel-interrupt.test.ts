import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAlive, runRalph, waitFor, type Repo } from '../helpers/e2e.js';
import { parallelRecord, repoWithLists } from '../helpers/parallel-repo.js';

/**
 * The user's gate: it passes at once in a loop's worktree, and in an integration worktree (the base
 * of a list with dependsOn, or --integrate) notes its pid and sleeps far past the test's patience.
 */
function hangingGate(pidFile: string): string {
  const command = `case "$PWD" in *integration*) echo $$ > '${pidFile}'; exec sleep 120;; esac`;
  return JSON.stringify({ gates: [{ name: 'tests', command, timeout: '5m' }] });
}

/** Runs ralph and sends it SIGINT once the hanging gate has started; says how long it took to end after that. */
async function interruptAtGate(repo: Repo, args: string[], pidFile: string) {
  let interruptedAt = 0;
  let poll: NodeJS.Timeout | undefined;
  const result = await runRalph(repo, args, {
    timeoutMs: 100_000,
    onStart: (child) => {
      poll = setInterval(() => {
        if (interruptedAt === 0 && existsSync(pidFile) && readFileSync(pidFile, 'utf8').trim() !== '') {
          interruptedAt = Date.now();
          child.kill('SIGINT');
        }
      }, 100);
    },
  }).finally(() => clearInterval(poll));
  return { ...result, afterInterruptMs: Date.now() - interruptedAt, gate: Number(readFileSync(pidFile, 'utf8')) };
}

describe('ralph run --parallel: Ctrl-C reaches the work of the supervisor itself', () => {
  it("ends the gates of a dependent list's base at once, and that list ends interrupted", async () => {
    const pidFile = join(await mkdtemp(join(tmpdir(), 'ralph-gate-')), 'gate.pid');
    const repo = await repoWithLists(
      ['base', 'next'],
      1,
      { next: { dependsOn: ['base'] } },
      {
        'ralph/config.json': hangingGate(pidFile),
      },
    );
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const result = await interruptAtGate(repo, ['run', '--parallel', '--max-iterations', '3'], pidFile);
    expect(result.code, result.stdout + result.stderr).toBe(130);
    expect(result.afterInterruptMs).toBeLessThan(20_000);
    await waitFor(() => !isAlive(result.gate));
    const next = parallelRecord(repo).loops.find((loop) => loop.list === 'next');
    expect(next?.outcome).toMatchObject({ state: 'ran', reason: 'interrupted', exitCode: 130 });
    expect(result.stdout).toContain('next │ interrupted while its base was made');
  }, 120_000);

  it('ends the gates of --integrate at once, and the run ends 130', async () => {
    const pidFile = join(await mkdtemp(join(tmpdir(), 'ralph-gate-')), 'gate.pid');
    const repo = await repoWithLists(['solo'], 1, {}, { 'ralph/config.json': hangingGate(pidFile) });
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const result = await interruptAtGate(repo, ['run', '--parallel', '--integrate', '--max-iterations', '3'], pidFile);
    expect(result.code, result.stdout + result.stderr).toBe(130);
    expect(result.afterInterruptMs).toBeLessThan(20_000);
    await waitFor(() => !isAlive(result.gate));
    const integration = JSON.parse(repo.read('ralph/logs/integrate-last-run.json')) as {
      exitCode: number;
      lists: { list: string; state: string }[];
    };
    expect(integration.exitCode).toBe(130);
    expect(integration.lists).toEqual([expect.objectContaining({ list: 'solo', state: 'interrupted' })]);
  }, 120_000);

  it('ralph integrate on its own: Ctrl-C at a gate ends it 130, the gate gone', async () => {
    const pidFile = join(await mkdtemp(join(tmpdir(), 'ralph-gate-')), 'gate.pid');
    const repo = await repoWithLists(['solo'], 1, {}, { 'ralph/config.json': hangingGate(pidFile) });
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    expect((await runRalph(repo, ['run', '--worktree', '--tasks', 'ralph/lists/solo.json'])).code).toBe(0);
    const result = await interruptAtGate(repo, ['integrate'], pidFile);
    expect(result.code, result.stdout + result.stderr).toBe(130);
    expect(result.stderr).toBe('');
    expect(result.afterInterruptMs).toBeLessThan(20_000);
    await waitFor(() => !isAlive(result.gate));
  }, 120_000);
});
