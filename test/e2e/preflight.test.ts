import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpsServer, selfSignedCertificate } from '../helpers/local-servers.js';
import { makeRepo, runRalph } from '../helpers/e2e.js';

// The fake agent passes for the real client (its --version says "(Claude Code)"), so ralph probes
// its login and its API — a local HTTPS server, or an unresolvable .invalid name: never the network.
const REAL_CLIENT = { RALPH_AGENT_VERSION: '2.1.197 (Claude Code)' };
const NO_LOGIN = { ANTHROPIC_API_KEY: undefined, ANTHROPIC_AUTH_TOKEN: undefined, CLAUDE_CODE_OAUTH_TOKEN: undefined };
const certificate = selfSignedCertificate();
let api: Awaited<ReturnType<typeof httpsServer>>;
let home: string;

beforeAll(async () => {
  api = await httpsServer(certificate, 404);
  home = await mkdtemp(join(tmpdir(), 'ralph-home-'));
});
afterAll(() => api.close());

/** The real client, logged in by key, calling the local API through the test's CA. */
const reachable = () => ({
  ...REAL_CLIENT,
  ...NO_LOGIN,
  HOME: home,
  ANTHROPIC_API_KEY: 'sk-test',
  ANTHROPIC_BASE_URL: `https://127.0.0.1:${api.port}`,
  NODE_EXTRA_CA_CERTS: certificate.certPath,
  HTTPS_PROXY: undefined,
  https_proxy: undefined,
});

describe('the preflight of the real client', () => {
  it('a dry run with no login exits 64 with the login fix, and the agent is never called', async () => {
    const repo = await makeRepo();
    // Its API answers (the local one): the login is the one failure, whatever this machine's network.
    const env = { ...reachable(), ANTHROPIC_API_KEY: undefined, CLAUDE_CONFIG_DIR: undefined };
    const result = await runRalph(repo, ['run', '--dry-run'], { env });
    expect(result.code).toBe(64);
    expect(result.stdout).toMatch(/FAILED +login +Claude Code is not logged in/);
    expect(result.stdout).toMatch(/ok +version +2\.1\.197 \(Claude Code\)/);
    expect(result.stderr).toContain('ralph: Claude Code is not logged in');
    expect(result.stderr).toContain('run `claude` once');
    expect(repo.calls()).toBe(0);

    const run = await runRalph(repo, ['run'], { env });
    expect(run.code).toBe(64);
    expect(repo.calls()).toBe(0);
    expect(repo.lastRun()).toMatchObject({ reason: 'setup', exitCode: 64, stories: { complete: 0, total: 2 } });
  });

  it('a real run names every failed start check at once, as the dry run lists them: login, network, work tree', async () => {
    const repo = await makeRepo();
    await repo.write('README.md', 'edited\n');
    const env = {
      ...REAL_CLIENT,
      ...NO_LOGIN,
      HOME: home,
      CLAUDE_CONFIG_DIR: undefined,
      ANTHROPIC_BASE_URL: 'https://api.ralph-preflight.invalid',
    };
    const dry = await runRalph(repo, ['run', '--dry-run'], { env });
    expect(dry.stdout).toMatch(/3 checks fail: a run would stop before its first call/);
    const run = await runRalph(repo, ['run'], { env });
    expect(run.code).toBe(64);
    expect(repo.calls()).toBe(0);
    // One refusal, in the documented order, each failure with its own fix — the dry run's stderr says the same.
    const said = run.stderr.split('\n');
    const start = said.indexOf('ralph: 3 start checks failed:');
    expect(start).toBeGreaterThanOrEqual(0);
    expect(said[start + 1]).toMatch(/^ {2}login: Claude Code is not logged in .* — .*run `claude` once/);
    expect(said[start + 2]).toMatch(
      /^ {2}network: cannot reach https:\/\/api\.ralph-preflight\.invalid: .* — .*HTTPS_PROXY/,
    );
    expect(said[start + 3]).toMatch(
      /^ {2}work tree: the work tree has uncommitted changes outside ralph\/: README\.md/,
    );
    expect(dry.stderr).toContain(said.slice(start, start + 4).join('\n'));
    expect(repo.lastRun()).toMatchObject({ reason: 'setup', exitCode: 64 });
    expect(repo.lastRun().detail).toContain('3 start checks failed');
    // Logged in and reachable, the work tree's refusal is the one left, as it is: its git ran all the same.
    const second = await runRalph(repo, ['run'], { env: reachable() });
    expect(second.code).toBe(64);
    expect(second.stderr).toContain('ralph: the work tree has uncommitted changes outside ralph/: README.md');
    expect(second.stderr).not.toContain('start checks failed');
    expect(repo.calls()).toBe(0);
  });

  it('a dry run with no network (a name that does not resolve) exits 64 with the network hint, 0 calls', async () => {
    const repo = await makeRepo();
    const env = { ...reachable(), ANTHROPIC_BASE_URL: 'https://api.ralph-preflight.invalid' };
    const result = await runRalph(repo, ['run', '--dry-run'], { env });
    expect(result.code).toBe(64);
    expect(result.stdout).toMatch(/ok +login +ANTHROPIC_API_KEY is set/);
    expect(result.stdout).toMatch(/FAILED +network +cannot reach https:\/\/api\.ralph-preflight\.invalid: the name/);
    expect(result.stderr).toContain('HTTPS_PROXY');
    expect(result.stderr).toContain('--skip-preflight');

    const run = await runRalph(repo, ['run', '--max-iterations', '7'], { env });
    expect(run.code).toBe(64);
    expect(repo.calls()).toBe(0);
    expect(repo.lastRun()).toMatchObject({ reason: 'setup', maxIterations: 7, stories: { complete: 0, total: 2 } });
  });

  it('a certificate that does not verify fails the network check', async () => {
    const repo = await makeRepo();
    const result = await runRalph(repo, ['run', '--dry-run'], {
      env: { ...reachable(), NODE_EXTRA_CA_CERTS: undefined },
    });
    expect(result.code).toBe(64);
    expect(result.stdout).toMatch(/FAILED +network +cannot reach https:\/\/127\.0\.0\.1:\d+: the certificate/);
  });

  it('with login and network, runs — printing and recording the agent version first', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const dry = await runRalph(repo, ['run', '--dry-run'], { env: reachable() });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/ok +network +https:\/\/127\.0\.0\.1:\d+ answers \(HTTP 404\)/);
    await repo.steps([{ implement: true, say: '<promise>COMPLETE</promise>' }]);
    const run = await runRalph(repo, ['run', '--skip-review'], { env: reachable() });
    expect(run.code).toBe(0);
    // The run's first lines: how it keeps its processes, and the agent it runs.
    expect(run.stdout.split('\n').slice(0, 2)).toContain('agent: 2.1.197 (Claude Code)');
    expect(repo.lastRun()).toMatchObject({ reason: 'complete', agentVersion: '2.1.197 (Claude Code)' });
  });

  it('--skip-preflight (RALPH_SKIP_PREFLIGHT) probes neither, for a gateway of your own', async () => {
    const repo = await makeRepo();
    const env = { ...REAL_CLIENT, ...NO_LOGIN, HOME: home, ANTHROPIC_BASE_URL: 'https://api.ralph-preflight.invalid' };
    const flag = await runRalph(repo, ['run', '--dry-run', '--skip-preflight'], { env });
    expect(flag.code).toBe(0);
    expect(flag.stdout).toMatch(/ok +login +not checked \(--skip-preflight\)/);
    const variable = await runRalph(repo, ['run', '--dry-run'], { env: { ...env, RALPH_SKIP_PREFLIGHT: '1' } });
    expect(variable.code).toBe(0);
  });

  it('a scripted stand-in is not probed: no login, no network, and the run goes on', async () => {
    const repo = await makeRepo();
    const env = { ...NO_LOGIN, HOME: home, ANTHROPIC_BASE_URL: 'https://api.ralph-preflight.invalid' };
    const result = await runRalph(repo, ['run', '--dry-run'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/ok +version +ralph scripted agent/);
    expect(result.stdout).not.toMatch(/ login | network /);
  });
});

describe('asking the version', () => {
  it('asks only a program named claude: a wrapper of your own might take --version for a prompt', async () => {
    const repo = await makeRepo();
    const wrapper = join(await mkdtemp(join(tmpdir(), 'ralph-wrapper-')), 'my-agent');
    await writeFile(wrapper, `#!/bin/sh\necho "$@" >> "${wrapper}.calls"\n`, { mode: 0o755 });
    const result = await runRalph(repo, ['run', '--dry-run', '--agent-bin', wrapper], { env: REAL_CLIENT });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/ok +version +not asked: only `claude` is asked its --version/);
    expect(existsSync(`${wrapper}.calls`)).toBe(false);
  });
});

describe('the dry run lists every check', () => {
  it('with uncommitted files: the work tree FAILED among all the other checks and the configuration, exit 64', async () => {
    const repo = await makeRepo();
    await repo.write('README.md', 'edited\n');
    const result = await runRalph(repo, ['run', '--dry-run']);
    expect(result.code).toBe(64);
    expect(result.stdout).toMatch(
      /^ {2}FAILED +work tree +the work tree has uncommitted changes outside ralph\/: README\.md/m,
    );
    for (const name of ['lock', 'task list', 'prompt', 'agent', 'logs'])
      expect(result.stdout).toMatch(new RegExp(`^ {2}ok +${name} `, 'm'));
    expect(result.stdout).toContain('Resolved configuration');
    expect(result.stderr).toContain('ralph: the work tree has uncommitted changes outside ralph/: README.md');
    const allowed = await runRalph(repo, ['run', '--dry-run', '--allow-dirty']);
    expect(allowed.stdout).toMatch(/^ {2}ok +work tree +uncommitted changes allowed \(--allow-dirty\)/m);
  });

  it('warns when --max-iterations cannot finish the stories left (× 2 with the review cycle on)', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }, { id: 'US-2' }, { id: 'US-3', passes: true }] });
    const reviewed = await runRalph(repo, ['run', '--dry-run', '--max-iterations', '3'], {
      env: { RALPH_SKIP_REVIEW: undefined },
    });
    expect(reviewed.code).toBe(0);
    expect(reviewed.stdout).toMatch(
      /warning +iterations +--max-iterations 3 cannot finish the 3 stories left \(each takes an implement and a review iteration: 6 at least\)/,
    );
    const enough = await runRalph(repo, ['run', '--dry-run', '--max-iterations', '2']);
    expect(enough.stdout).not.toContain('cannot finish');
    const short = await runRalph(repo, ['run', '--dry-run', '--max-iterations', '1']);
    expect(short.stdout).toMatch(
      /--max-iterations 1 cannot finish the 2 stories left \(each takes an iteration: 2 at least\)/,
    );
  });
});
