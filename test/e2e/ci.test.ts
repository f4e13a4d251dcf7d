import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, runRalph } from '../helpers/e2e.js';

const ANSI = /\u001b\[\d+m/;

async function githubFiles() {
  const dir = await mkdtemp(join(tmpdir(), 'ralph-gha-'));
  const files = { GITHUB_STEP_SUMMARY: join(dir, 'summary.md'), GITHUB_OUTPUT: join(dir, 'output') };
  await writeFile(files.GITHUB_STEP_SUMMARY, '');
  await writeFile(files.GITHUB_OUTPUT, '');
  return { env: { GITHUB_ACTIONS: 'true', CI: 'true', ...files }, read: (name: keyof typeof files) => readFile(files[name], 'utf8') };
}

describe('ralph run on GitHub Actions', () => {
  it('groups each iteration, annotates the ending, and writes the step summary and outputs', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }, { id: 'US-2' }] });
    await repo.steps([{ implement: true }, { say: 'thinking\n' }, { say: '<promise>BLOCKED:the staging API key is missing</promise>' }]);
    const gha = await githubFiles();
    const result = await runRalph(repo, ['run'], { env: gha.env });
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('::group::Iteration 1 (implement)');
    expect(result.stdout.match(/::endgroup::/g)).toHaveLength(3);
    expect(result.stdout).toContain('::error title=ralph stopped::ralph: BLOCKED (exit 2): the staging API key is missing');
    const summary = await gha.read('GITHUB_STEP_SUMMARY');
    expect(summary).toContain('## Ralph Loop Summary');
    expect(summary).toContain('| Exit | BLOCKED (code 2) |');
    expect(summary).toContain('### Blocked\n\n> the staging API key is missing');
    expect(summary).toMatch(/\| 1 \| implement \| .* \| [0-9a-f]{7} \| 1\/2 \| ok \|/);
    expect(await gha.read('GITHUB_OUTPUT')).toBe('reason=blocked\nexit-code=2\n');
  });

  it('gives DECIDE a notice, not an error', async () => {
    const repo = await makeRepo();
    await repo.steps([{ say: '<promise>DECIDE:REST or GraphQL?</promise>' }]);
    const gha = await githubFiles();
    const result = await runRalph(repo, ['run'], { env: gha.env });
    expect(result.code).toBe(3);
    expect(result.stdout).toContain('::notice title=ralph needs a decision::ralph: DECIDE (exit 3): REST or GraphQL?');
    expect(result.stdout).not.toContain('::error');
    expect(await gha.read('GITHUB_STEP_SUMMARY')).toContain('### Decision needed');
  });

  it('writes no annotation on success, and the outputs say complete', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const gha = await githubFiles();
    const result = await runRalph(repo, ['run'], { env: gha.env });
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/::(error|notice)/);
    expect(await gha.read('GITHUB_OUTPUT')).toBe('reason=complete\nexit-code=0\n');
  });

  it('annotates a refused start and writes its reason to the outputs', async () => {
    const repo = await makeRepo();
    await writeFile(join(repo.root, 'ralph/blocked.txt'), '## Blocked (from iteration 1, 2026-01-01T00:00:00Z)\nno key\n');
    const gha = await githubFiles();
    const result = await runRalph(repo, ['run'], { env: gha.env });
    expect(result.code).toBe(2);
    expect(result.stdout).toContain('::error title=ralph stopped::ralph: BLOCKED (exit 2)');
    expect(await gha.read('GITHUB_OUTPUT')).toBe('reason=blocked\nexit-code=2\n');
  });
});

describe('ralph run in CI and colour', () => {
  it("timestamps ralph's own lines in CI", async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run'], { env: { CI: 'true' } });
    expect(result.stdout).toMatch(/^\d\d:\d\d:\d\d ── Iteration 1/m);
    expect(result.stdout).toMatch(/^\d\d:\d\d:\d\d Exit: +COMPLETE/m);
  });

  it('colours with FORCE_COLOR, and NO_COLOR wins over it', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const coloured = await runRalph(repo, ['run'], { env: { NO_COLOR: undefined, FORCE_COLOR: '1' } });
    expect(coloured.stdout).toMatch(ANSI);
    const repo2 = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo2.steps([{ implement: true, completeWhenDone: true }]);
    const plain = await runRalph(repo2, ['run'], { env: { NO_COLOR: '1', FORCE_COLOR: '1' } });
    expect(plain.stdout).not.toMatch(ANSI);
  });
});
