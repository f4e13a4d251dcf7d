import { mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, runRalph } from '../helpers/e2e.js';

/** The JSON lines of the events file. */
async function events(file: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(file, 'utf8');
  return text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe('--events-file', () => {
  it('appends one JSON line per ending: a run writes one, a second run (RALPH_EVENTS_FILE) appends another', async () => {
    const repo = await makeRepo({ stories: [{ id: 'A' }, { id: 'B' }, { id: 'C' }] });
    await repo.steps([{ implement: true }]);
    const file = join(await mkdtemp(join(tmpdir(), 'ralph-events-')), 'events.jsonl');
    const first = await runRalph(repo, ['run', '--max-iterations', '2', '--events-file', file]);
    expect(first.code, first.stdout + first.stderr).toBe(1);
    expect(await events(file)).toEqual([
      expect.objectContaining({ event: 'ended', reason: 'max_iterations', exitCode: 1, iterations: 2 }),
    ]);
    const second = await runRalph(repo, ['run', '--max-iterations', '1'], { env: { RALPH_EVENTS_FILE: file } });
    expect(second.code, second.stdout + second.stderr).toBe(0);
    const lines = await events(file);
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ event: 'ended', reason: 'complete', exitCode: 0, iterations: 1 });
  }, 60_000);

  it('is never chosen by ralph/config.json, which the agent writes: the run is refused (64) and writes no file', async () => {
    const repo = await makeRepo();
    await repo.steps([{ implement: true }]);
    const file = join(await mkdtemp(join(tmpdir(), 'ralph-events-')), 'events.jsonl');
    await writeFile(join(repo.root, 'ralph/config.json'), JSON.stringify({ eventsFile: file }));
    const result = await runRalph(repo, ['run']);
    expect(result.code).toBe(64);
    expect(result.stderr).toMatch(/eventsFile/);
    expect(repo.calls()).toBe(0);
    expect(existsSync(file)).toBe(false);
  }, 60_000);

  it('never appends through a link: one planted in the work tree leaves its target as it was', async () => {
    const repo = await makeRepo({ stories: [{ id: 'A' }] });
    await repo.steps([{ implement: true }]);
    const target = join(await mkdtemp(join(tmpdir(), 'ralph-events-')), 'profile');
    await writeFile(target, 'export PATH=/usr/bin\n');
    await symlink(target, join(repo.root, 'ralph/events.jsonl'));
    const result = await runRalph(repo, ['run', '--max-iterations', '1', '--events-file', 'ralph/events.jsonl']);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/the events file \(.*ralph\/events\.jsonl\) could not be written/);
    expect(await readFile(target, 'utf8')).toBe('export PATH=/usr/bin\n');
  }, 60_000);
});
