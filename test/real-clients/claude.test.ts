/**
 * The real Claude Code, checked against what ralph predicts of it (npm run test:agents; opt-in).
 * Point RALPH_REAL_CLAUDE at a client of your own (default: the pinned build, installed from npm
 * into a temporary prefix by install-client.ts):
 *   RALPH_REAL_CLAUDE=/tmp/cc/node_modules/.bin/claude npm run test:agents
 * No call is paid for: every run here has no credentials (an empty HOME, no key variable).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { claudeLoginState } from '../../src/agent/claude/login-state.js';
import { claude } from '../../src/agent/claude/dialect.js';
import { liftsRootRefusal, ROOT_RULE_READ_FROM } from '../../src/agent/claude/sandbox-rule.js';
import { installClient } from './install-client.js';
import { startAnthropicStandIn, USAGE } from './stand-in-api.js';
import { makeRepo, runRalph } from '../helpers/e2e.js';

const isClaudeCodeVersion = (version: string) => claude.versionPattern.test(version);

let CLAUDE = process.env.RALPH_REAL_CLAUDE ?? '';
const ROOT_REFUSAL = '--dangerously-skip-permissions cannot be used with root/sudo privileges';

/** An environment with no login: an empty HOME and none of the key variables. */
function loggedOut(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const {
    ANTHROPIC_API_KEY: _k,
    ANTHROPIC_AUTH_TOKEN: _t,
    CLAUDE_CODE_OAUTH_TOKEN: _o,
    IS_SANDBOX: _s,
    ...rest
  } = process.env;
  return { ...rest, HOME: mkdtempSync(join(tmpdir(), 'ralph-real-home-')), CLAUDE_CONFIG_DIR: undefined, ...extra };
}

function version(): string {
  return execFileSync(CLAUDE, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

describe('the real Claude Code', () => {
  beforeAll(async () => {
    CLAUDE ||= await installClient('claude');
  }, 300_000);

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

  // The box (docs/sandbox.md) with the real client in it: its tools, its state, its commit.
  it.skipIf(!boxWorks()).each(['open', 'allow-list'])(
    'completes a story inside the box (network %s) in a whole ralph run, against a stand-in API: its own tool call and commit',
    async (network) => {
      const story =
        'node -e \'const f="ralph/tasks.json";const t=JSON.parse(require("fs").readFileSync(f,"utf8"));' +
        't.stories[0].passes=true;require("fs").writeFileSync(f,JSON.stringify(t,null,2))\' && ' +
        'echo done > story.txt && git add -A && git commit -qm "US-1 by the real client"';
      const api = await startAnthropicStandIn([{ bash: story }, { text: 'Done. <promise>COMPLETE</promise>' }]);
      try {
        const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
        const home = loggedOut().HOME ?? '';
        mkdirSync(join(home, '.claude'));
        const result = await runRalph(repo, ['run', '--agent-bin', CLAUDE, '--max-iterations', '2'], {
          env: {
            ...loggedOut({ HOME: home }),
            ANTHROPIC_API_KEY: 'sk-ant-stand-in',
            ANTHROPIC_BASE_URL: api.url,
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
            RALPH_BOX: 'bubblewrap',
            // In allow-list mode the stand-in's address is the client's own API host (ANTHROPIC_BASE_URL).
            RALPH_BOX_NETWORK: network,
            IS_SANDBOX: '1',
          },
          timeoutMs: 120_000,
        });
        expect(result.stdout, result.stderr).toContain('box: bubblewrap');
        expect(result.code, result.stdout).toBe(0);
        expect(repo.git('log', '-1', '--format=%s')).toBe('US-1 by the real client');
        expect(repo.lastRun()).toMatchObject({ reason: 'complete', box: { mode: 'bubblewrap' } });
        // Two turns: the tool call, then the final text; each charged USAGE.
        expect(api.requests.filter((line) => line.startsWith('POST /v1/messages')).length).toBe(2);
        expect(result.stdout).toContain(`${2 * USAGE.input_tokens} in`);
      } finally {
        await api.close();
      }
    },
  );
});

/** Whether bubblewrap can make a box here. */
function boxWorks(): boolean {
  return (
    spawnSync('bwrap', ['--unshare-pid', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', 'true']).status ===
    0
  );
}
