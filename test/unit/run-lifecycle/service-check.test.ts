import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dialectOf } from '../../../src/agent/dialects.js';
import type { AgentDialect } from '../../../src/agent/dialect.js';
import type { AgentPreflight, LoginReading } from '../../../src/agent/preflight-types.js';
import { askAgent } from '../../../src/agent/ask-agent.js';
import { checkService } from '../../../src/run-lifecycle/service-check.js';

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A real `claude` on disk that answers `--version` as the real client does, and nothing else. */
/** The service check of a client on disk, asked directly (no box). */
function onDisk(agentPath: string, dialect: AgentDialect) {
  return { agentPath, dialect, agentEnv: {}, ask: askAgent(agentPath, {}, tmpdir()), skip: false };
}

async function claudeOnDisk(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ralph-service-check-'));
  made.push(dir);
  const path = join(dir, 'claude');
  await writeFile(path, '#!/bin/sh\n[ "$1" = --version ] || exit 9\necho "2.1.197 (Claude Code)"\n');
  await chmod(path, 0o755);
  return path;
}

/** Claude's dialect with a preflight whose login answers when the test says so. */
function withPreflight(login: Promise<LoginReading>, onEndpoint: () => void): AgentDialect {
  const preflight: AgentPreflight = {
    client: 'Claude Code',
    login: () => login,
    endpoint: () => {
      onEndpoint();
      return { skipped: 'ANTHROPIC_BASE_URL names a gateway' };
    },
    loginFix: 'log in',
    networkFix: () => 'check the network',
  };
  return { ...dialectOf('claude'), preflight: () => preflight };
}

describe('checkService', () => {
  it('asks the API while the login is still being read, and keeps the checks in their order', async () => {
    let answerLogin: (reading: LoginReading) => void = () => undefined;
    const login = new Promise<LoginReading>((resolve) => (answerLogin = resolve));
    let endpointAsked: () => void = () => undefined;
    const asked = new Promise<void>((resolve) => (endpointAsked = resolve));
    const dialect = withPreflight(login, () => endpointAsked());

    const checked = checkService(onDisk(await claudeOnDisk(), dialect));
    // `--version` answers first; then the network check begins without waiting for the login
    // (one after the other, this would wait for ever: the test's timeout says so).
    await asked;
    answerLogin({ state: 'ok', detail: 'logged in' });
    const { checks, version } = await checked;

    expect(version).toBe('2.1.197 (Claude Code)');
    expect(checks.map((check) => [check.name, check.status])).toEqual([
      ['version', 'ok'],
      ['login', 'ok'],
      ['network', 'ok'],
    ]);
  }, 10_000);

  it('still reports a missing login first when the network check has passed', async () => {
    const dialect = withPreflight(Promise.resolve({ state: 'missing', detail: 'no key' }), () => undefined);
    const { checks } = await checkService(onDisk(await claudeOnDisk(), dialect));
    expect(checks.map((check) => [check.name, check.status])).toEqual([
      ['version', 'ok'],
      ['login', 'failure'],
      ['network', 'ok'],
    ]);
  });
});
