import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { clientSpec, installOrSkip } from '../real-clients/install-client.js';
import { PACKAGE_ROOT } from '../helpers/e2e.js';

const SUMMARY = join(PACKAGE_ROOT, 'scripts/real-clients-summary.mjs');

function summary(log: string, report?: object) {
  const dir = mkdtempSync(join(tmpdir(), 'ralph-real-summary-'));
  writeFileSync(join(dir, 'output.txt'), log);
  if (report) writeFileSync(join(dir, 'report.json'), JSON.stringify(report));
  const result = spawnSync(process.execPath, [SUMMARY, join(dir, 'output.txt'), join(dir, 'report.json')], {
    encoding: 'utf8',
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("the real clients' CI summary (scripts/real-clients-summary.mjs)", () => {
  it('counts each skipped client once and names every failed case with its client, version and what changed', () => {
    const log = [
      'stderr | test/real-clients/agents.test.ts',
      '[real-clients] SKIP amp (@ampcode/cli@latest): Error: Amp native binary not installed.',
      '[real-clients] SKIP amp (@ampcode/cli@latest): Error: Amp native binary not installed.',
      '[real-clients] SKIP gemini (@google/gemini-cli@latest): npm error 503',
      ' ✓ something else',
    ].join('\n');
    const failed = {
      status: 'failed',
      ancestorTitles: ['the real Codex through whole ralph loops (codex-cli 0.172.0, @openai/codex@latest)'],
      title: 'BLOCKED: exit 2 and the reason in ralph/blocked.txt',
      failureMessages: ['AssertionError: expected 1 to be 2\n    at …'],
    };
    const result = summary(log, {
      testResults: [{ name: 'codex.test.ts', status: 'failed', assertionResults: [failed, { status: 'passed' }] }],
    });
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')).toEqual([
      'skipped: amp (@ampcode/cli@latest): Error: Amp native binary not installed.',
      'skipped: gemini (@google/gemini-cli@latest): npm error 503',
      'real clients skipped: 2',
      'FAILED: the real Codex through whole ralph loops (codex-cli 0.172.0, @openai/codex@latest) > ' +
        'BLOCKED: exit 2 and the reason in ralph/blocked.txt: AssertionError: expected 1 to be 2',
      '',
    ]);
  });

  it('says so when the suite left no report, and counts no skip where there was none', () => {
    const result = summary('nothing\n');
    expect(result.stdout).toContain('real clients skipped: 0');
    expect(result.stdout).toContain('no test report at');
  });
});

describe('a real client that cannot be started', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('is skipped with one line naming the client, its package and why', async () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const installed = await installOrSkip('codex', join(tmpdir(), 'no-such-codex'));
    write.mockRestore();
    expect(installed.bin).toBeUndefined();
    expect(installed.skip).toMatch(/^\[real-clients\] SKIP codex \(@openai\/codex@[\d.]+\): .*ENOENT/);
  });

  it('RALPH_REAL_CLIENTS_LATEST=1 asks for the newest release of the package', () => {
    expect(clientSpec('codex')).toMatch(/^@openai\/codex@\d/);
    vi.stubEnv('RALPH_REAL_CLIENTS_LATEST', '1');
    expect(clientSpec('codex')).toBe('@openai/codex@latest');
    expect(clientSpec('claude')).toBe('@anthropic-ai/claude-code@latest');
  });
});
