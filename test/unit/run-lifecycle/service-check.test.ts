import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dialectOf } from '../../../src/agent/dialects.js';
import type { AgentDialect } from '../../../src/agent/dialect.js';
import type { AgentPreflight, LoginReading } from '../../../src/agent/preflight-types.js';
import { checkService } from '../../../src/run-lifecycle/service-check.js';

/** A real `claude` on disk that answers `--version` as the real client does, and nothing else. */
async function claudeOnDisk(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ralph-service-check-'));
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
    let endpointAsked = false;
    const dialect = withPreflight(login, () => (endpointAsked = true));

    const checked = checkService({ agentPath: await claudeOnDisk(), dialect, agentEnv: {}, skip: false });
    // `--version` answers first; then the network check begins without waiting for the login.
    await expect.poll(() => endpointAsked).toBe(true);
    answerLogin({ state: 'ok', detail: 'logged in' });
    const { checks, version } = await checked;

    expect(version).toBe('2.1.197 (Claude Code)');
    expect(checks.map((check) => [check.name, check.status])).toEqual([
      ['version', 'ok'],
      ['login', 'ok'],
      ['network', 'ok'],
    ]);
  });

  it('still reports a missing login first when the network check has passed', async () => {
    const dialect = withPreflight(Promise.resolve({ state: 'missing', detail: 'no key' }), () => undefined);
    const { checks } = await checkService({ agentPath: await claudeOnDisk(), dialect, agentEnv: {}, skip: false });
    expect(checks.map((check) => [check.name, check.status])).toEqual([
      ['version', 'ok'],
      ['login', 'failure'],
      ['network', 'ok'],
    ]);
  });
});
