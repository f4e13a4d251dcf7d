import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { liftsRootRefusal } from '../../../src/agent/claude/sandbox-rule.js';
import { checkAgent } from '../../../src/run-lifecycle/agent-check.js';
import { isClaudeCodeSkippingPermissions } from '../../../src/agent/claude/root-rule.js';
import { errorLine } from '../../../src/errors.js';
import { FAKE_BIN_DIR } from '../../helpers/e2e.js';

const base = {
  cwd: '/',
  agentKind: 'claude' as const,
  agentBin: 'claude',
  skipPermissions: true,
  agentEnv: { PATH: FAKE_BIN_DIR },
  uid: 1000,
  needed: true,
};
const statusOf = async (options: Partial<typeof base> & { agentBin?: string }) => {
  const { checks } = await checkAgent({ ...base, ...options });
  return Object.fromEntries(checks.map((check) => [check.name, check.status]));
};

describe('checkAgent', () => {
  it('finds the agent on the PATH it will be started with', async () => {
    const { checks, path } = await checkAgent(base);
    expect(path).toBe(`${FAKE_BIN_DIR}/claude`);
    expect(checks.map((check) => check.status)).toEqual(['ok', 'ok']);
  });

  it('fails a missing agent when it is needed, and only warns when every story is complete', async () => {
    expect(await statusOf({ agentEnv: { PATH: '/nowhere' } })).toEqual({ agent: 'failure', root: 'ok' });
    expect(await statusOf({ agentEnv: { PATH: '/nowhere' }, needed: false })).toEqual({ agent: 'warning', root: 'ok' });
  });

  it.each([
    ['claude', "agent executable 'claude' not found on PATH — install Claude Code"],
    ['./missing/claude', "agent executable './missing/claude' not found — install Claude Code"],
    ['./notes.txt', "agent executable './notes.txt' is not executable — make it so (chmod +x ./notes.txt)"],
    ['./bin', "agent executable './bin' is a folder — pass --agent-bin the program in it"],
  ])('says why --agent-bin %s cannot be started', async (agentBin, said) => {
    const cwd = await mkdtemp(join(tmpdir(), 'ralph-agent-check-'));
    await writeFile(join(cwd, 'notes.txt'), 'not a program\n', { mode: 0o644 });
    await mkdir(join(cwd, 'bin'));
    const { checks } = await checkAgent({ ...base, cwd, agentBin, agentEnv: { PATH: '/nowhere' } });
    const agent = checks.find((check) => check.name === 'agent');
    expect(agent?.status).toBe('failure');
    // The line's start: what is wrong, and the first words of the fix.
    expect(errorLine(agent!.error!).slice(0, `ralph: ${said}`.length)).toBe(`ralph: ${said}`);
  });

  it.each([
    ['root, claude, skipping permissions, no IS_SANDBOX', { uid: 0 }, 'failure'],
    ['root with IS_SANDBOX=1', { uid: 0, agentEnv: { PATH: FAKE_BIN_DIR, IS_SANDBOX: '1' } }, 'ok'],
    ['root with IS_SANDBOX=0', { uid: 0, agentEnv: { PATH: FAKE_BIN_DIR, IS_SANDBOX: '0' } }, 'failure'],
    ['root, permission prompts kept', { uid: 0, skipPermissions: false }, 'ok'],
    ['root, another agent', { uid: 0, agentBin: '/bin/true' }, 'ok'],
    ['a normal user', { uid: 1000 }, 'ok'],
    ['no user id (Windows)', { uid: undefined }, 'ok'],
  ] as const)('the root check: %s → %s', async (_name, options, status) => {
    expect((await statusOf(options as Partial<typeof base>)).root).toBe(status);
  });

  it('in sandbox mode checks nothing on the host', async () => {
    const { checks } = await checkAgent({ ...base, agentBin: undefined, uid: 0 });
    expect(checks).toEqual([{ name: 'agent', status: 'ok', detail: 'runs inside the Docker sandbox' }]);
  });
});

describe('recognising Claude Code', () => {
  it.each([
    ['claude', true, true],
    ['/usr/local/bin/claude', true, true],
    ['claude', false, false],
    ['my-claude-wrapper', true, false],
  ] as const)('%s (skip permissions %s) → %s', (bin, skip, expected) => {
    expect(isClaudeCodeSkippingPermissions(bin, skip)).toBe(expected);
  });

  // The client's own rule (2.1.197): exactly "1"; test/real-clients/claude.test.ts checks it against the client.
  it.each([
    [undefined, false],
    ['', false],
    ['0', false],
    ['false', false],
    ['yes', false],
    ['true', false],
    [' 1', false],
    ['1', true],
  ])('IS_SANDBOX=%j lifts the refusal: %s', (value, expected) => {
    expect(liftsRootRefusal(value === undefined ? {} : { IS_SANDBOX: value })).toBe(expected);
  });

  it.each(['1', 'true', 'YES', ' on '])('CLAUDE_CODE_BUBBLEWRAP=%j lifts it too, as the client reads it', (value) => {
    expect(liftsRootRefusal({ CLAUDE_CODE_BUBBLEWRAP: value })).toBe(true);
  });

  it('as root with IS_SANDBOX=yes fails the root check, naming the value and the fix', async () => {
    const { checks } = await checkAgent({
      ...base,
      agentBin: 'claude',
      skipPermissions: true,
      uid: 0,
      agentEnv: { ...base.agentEnv, IS_SANDBOX: 'yes' },
    });
    const root = checks.find((check) => check.name === 'root');
    expect(root?.status).toBe('failure');
    expect(root?.detail).toContain('IS_SANDBOX=yes');
    expect(root?.error?.hint).toContain('set IS_SANDBOX=1');
  });
});
