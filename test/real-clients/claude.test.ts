/**
 * The real Claude Code, checked against what ralph predicts of it (npm run test:agents; opt-in).
 * Point RALPH_REAL_CLAUDE at a client of your own (default: the pinned build, installed from npm
 * into a temporary prefix by install-client.ts):
 *   RALPH_REAL_CLAUDE=/tmp/cc/node_modules/.bin/claude npm run test:agents
 * No call is paid for: every run here has no credentials (an empty HOME, no key variable). Its
 * whole loops against a stand-in API are in claude-loops.test.ts.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { claudeLoginState } from '../../src/agent/claude/login-state.js';
import { claude } from '../../src/agent/claude/dialect.js';
import { liftsRootRefusal, ROOT_RULE_READ_FROM } from '../../src/agent/claude/sandbox-rule.js';
import { installOrSkip } from './install-client.js';
import { withoutLogins } from './loop.js';

const isClaudeCodeVersion = (version: string) => claude.versionPattern.test(version);

const installed = await installOrSkip('claude', process.env.RALPH_REAL_CLAUDE);
const CLAUDE = installed.bin ?? '';
const ROOT_REFUSAL = '--dangerously-skip-permissions cannot be used with root/sudo privileges';

/** An environment with no login, where ralph's own runs do not say it is a sandbox either. */
function loggedOut(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = withoutLogins(extra);
  if (!('IS_SANDBOX' in extra)) delete env.IS_SANDBOX;
  return env;
}

function version(): string {
  return execFileSync(CLAUDE, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

describe.skipIf(!installed.bin)(`the real Claude Code (${installed.version ?? installed.skip})`, () => {
  it('says its version as ralph recognises the real client', () => {
    expect(isClaudeCodeVersion(version())).toBe(true);
  });

  // The rule in src/agent/claude/sandbox-rule.ts was read from one version; this pins it on the installed one.
  it.skipIf(process.getuid?.() !== 0).each(['yes', 'true', ' 1', '0', '1'])(
    `as root with IS_SANDBOX=%j refuses or starts as ralph predicts (rule read from ${ROOT_RULE_READ_FROM})`,
    (value) => {
      const result = spawnSync(CLAUDE, ['-p', 'hello', '--dangerously-skip-permissions'], {
        env: loggedOut({ IS_SANDBOX: value }),
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 60_000,
      });
      const refused = result.stderr.includes(ROOT_REFUSAL);
      expect({ value, refused }).toEqual({ value, refused: !liftsRootRefusal({ IS_SANDBOX: value }) });
    },
  );

  it('with no login, is found "missing" by its own `auth status`; with a key variable, "ok"', async () => {
    const run = (env: NodeJS.ProcessEnv) => () =>
      Promise.resolve(
        spawnSync(CLAUDE, ['auth', 'status'], {
          env,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
          timeout: 30_000,
        }).stdout,
      );
    const out = loggedOut();
    const missing = await claudeLoginState({ env: out, home: out.HOME ?? '', platform: 'linux', authStatus: run(out) });
    expect(missing.state).toBe('missing');
    const keyed = loggedOut({ ANTHROPIC_API_KEY: 'sk-ant-not-a-real-key' });
    expect(JSON.parse(await run(keyed)())).toMatchObject({ loggedIn: true });
  });
});
