import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, runRalph } from '../helpers/e2e.js';

// The fake agent passes for the real OpenCode or Amp (its --version says what theirs says), so
// ralph runs their preflights: the login read from variables and files, and a probe of an
// unresolvable .invalid name — never the network.
const OPENCODE = { RALPH_AGENT_VERSION: '1.18.33' };
const AMP = { RALPH_AGENT_VERSION: '0.0.1790142911-g7618fb (released 2026-09-23T05:55:11.000Z, 2mo ago)' };
const NO_KEYS = {
  AMP_API_KEY: undefined,
  AMP_URL: undefined,
  OPENCODE_CONFIG: undefined,
  ANTHROPIC_API_KEY: undefined,
};

describe('the OpenCode and Amp preflights (issue #43: no key or no network ends the run before its first call)', () => {
  it('Amp with no AMP_API_KEY and no `amp login` token: the dry run says so, the run exits 64 with 0 calls', async () => {
    const repo = await makeRepo();
    const env = { ...AMP, ...NO_KEYS, HOME: await mkdtemp(join(tmpdir(), 'ralph-home-')), XDG_DATA_HOME: undefined };
    const dry = await runRalph(repo, ['run', '--dry-run', '--agent', 'amp'], { env });
    expect(dry.code).toBe(64);
    expect(dry.stdout).toMatch(/FAILED +login +Amp is not logged in \(no AMP_API_KEY, and no .*secrets\.json\)/);
    expect(dry.stderr).toContain('set AMP_API_KEY');
    const run = await runRalph(repo, ['run', '--agent', 'amp'], { env });
    expect(run.code).toBe(64);
    expect(repo.calls()).toBe(0);
    expect(repo.lastRun()).toMatchObject({ reason: 'setup', exitCode: 64 });
  });

  it('Amp with a key whose server (AMP_URL) cannot be reached: exit 64, the network fix, 0 calls', async () => {
    const repo = await makeRepo();
    const env = { ...AMP, ...NO_KEYS, HOME: await mkdtemp(join(tmpdir(), 'ralph-home-')), AMP_API_KEY: 'sgamp_x' };
    const run = await runRalph(repo, ['run', '--agent', 'amp'], {
      env: { ...env, AMP_URL: 'https://amp.ralph-preflight.invalid' },
    });
    expect(run.code).toBe(64);
    expect(run.stderr).toContain('cannot reach https://amp.ralph-preflight.invalid');
    expect(repo.calls()).toBe(0);
  });

  it('OpenCode: the provider its config names, with no key, then with an API it cannot reach: 64, 0 calls', async () => {
    const repo = await makeRepo();
    const home = await mkdtemp(join(tmpdir(), 'ralph-home-'));
    const noKey = { ...OPENCODE, ...NO_KEYS, HOME: home, OPENCODE_CONFIG_CONTENT: '{"model":"anthropic/claude-x"}' };
    const dry = await runRalph(repo, ['run', '--dry-run', '--agent', 'opencode'], { env: noKey });
    expect(dry.code).toBe(64);
    expect(dry.stdout).toMatch(/FAILED +login +OpenCode is not logged in \(its model's provider anthropic has no key/);
    expect(dry.stderr).toContain('opencode auth login');
    const config = {
      model: 'gateway/m',
      provider: { gateway: { options: { baseURL: 'https://llm.ralph-preflight.invalid/v1', apiKey: 'k' } } },
    };
    const unreachable = { ...OPENCODE, ...NO_KEYS, HOME: home, OPENCODE_CONFIG_CONTENT: JSON.stringify(config) };
    const run = await runRalph(repo, ['run', '--agent', 'opencode'], { env: unreachable });
    expect(run.code).toBe(64);
    expect(run.stderr).toContain('cannot reach https://llm.ralph-preflight.invalid');
    expect(run.stderr).toContain('OpenCode would retry for minutes');
    expect(repo.calls()).toBe(0);
  });
});
