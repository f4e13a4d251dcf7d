import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claudeLoginState } from '../../../../src/agent/claude/login-state.js';
import { claudeEndpoint } from '../../../../src/agent/claude/endpoint.js';
import { claude } from '../../../../src/agent/claude/dialect.js';

const isClaudeCodeVersion = (version: string) => claude.versionPattern.test(version);

const emptyHome = () => mkdtemp(join(tmpdir(), 'ralph-home-'));
const notLoggedIn = () => Promise.resolve('{\n  "loggedIn": false,\n  "authMethod": "none"\n}');

/** The client is never asked here: only the fixes are read. */
const NOT_ASKED = () => Promise.reject(new Error('not asked'));

describe('claudeLoginState', () => {
  it.each(['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN'])(
    'is ok with %s set, without asking the client',
    async (name) => {
      const reading = await claudeLoginState({
        env: { [name]: 'sk-x' },
        home: await emptyHome(),
        platform: 'linux',
        authStatus: () => Promise.reject(new Error('not asked')),
      });
      expect(reading).toEqual({ state: 'ok', detail: `${name} is set` });
    },
  );

  it('is ok with the credential file in ~/.claude or in CLAUDE_CONFIG_DIR', async () => {
    const home = await emptyHome();
    await mkdir(join(home, '.claude'));
    await writeFile(join(home, '.claude/.credentials.json'), '{"claudeAiOauth":{}}');
    expect(await claudeLoginState({ env: {}, home, platform: 'linux' })).toMatchObject({ state: 'ok' });
    const config = await emptyHome();
    await writeFile(join(config, '.credentials.json'), '{}');
    const reading = await claudeLoginState({
      env: { CLAUDE_CONFIG_DIR: config },
      home: await emptyHome(),
      platform: 'linux',
    });
    expect(reading).toEqual({ state: 'ok', detail: `credentials in ${config}/.credentials.json` });
  });

  it("is missing when nothing is there and the client's own `auth status` says not logged in", async () => {
    const home = await emptyHome();
    const reading = await claudeLoginState({
      env: { ANTHROPIC_API_KEY: ' ' },
      home,
      platform: 'darwin',
      authStatus: notLoggedIn,
    });
    expect(reading.state).toBe('missing');
    expect(reading.detail).toContain('`claude auth status` says not logged in');
  });

  it('names a key variable set but empty, as CI sets a secret that was never added, and gives the CI fix', async () => {
    const home = await emptyHome();
    const reading = await claudeLoginState({ env: { ANTHROPIC_API_KEY: '' }, home, platform: 'linux' });
    expect(reading).toMatchObject({
      state: 'missing',
      detail: expect.stringMatching(/^ANTHROPIC_API_KEY set but empty, and no /),
    });
    const version = '2.1.197 (Claude Code)';
    const inCi = claude.preflight!({ env: { CI: 'true', ANTHROPIC_API_KEY: '' }, ask: NOT_ASKED, version });
    expect(inCi.loginFix).toMatch(/^add the repository secret ANTHROPIC_API_KEY/);
    expect(claude.preflight!({ env: {}, ask: NOT_ASKED, version }).loginFix).toMatch(
      /^log in to Claude Code: run `claude` once/,
    );
  });

  it("trusts the client's `auth status` when it says logged in (an apiKeyHelper, say)", async () => {
    const reading = await claudeLoginState({
      env: {},
      home: await emptyHome(),
      platform: 'linux',
      authStatus: () => Promise.resolve('{"loggedIn": true, "authMethod": "api_key"}'),
    });
    expect(reading.state).toBe('ok');
  });

  it('is unknown on macOS when the client cannot be asked (the keychain), and missing on Linux', async () => {
    const silent = () => Promise.resolve('not json');
    expect(
      (await claudeLoginState({ env: {}, home: await emptyHome(), platform: 'darwin', authStatus: silent })).state,
    ).toBe('unknown');
    expect(
      (await claudeLoginState({ env: {}, home: await emptyHome(), platform: 'linux', authStatus: silent })).state,
    ).toBe('missing');
  });

  it.each([
    ['CLAUDE_CODE_USE_BEDROCK', 'Bedrock'],
    ['CLAUDE_CODE_USE_VERTEX', 'Vertex'],
  ])('is unknown with %s: the cloud credentials are not checked', async (name, cloud) => {
    const reading = await claudeLoginState({
      env: { [name]: '1' },
      home: await emptyHome(),
      platform: 'linux',
      authStatus: notLoggedIn,
    });
    expect(reading).toEqual({ state: 'unknown', detail: `${cloud} set-up: its cloud credentials are not checked` });
  });
});

describe('claudeEndpoint', () => {
  it('is Anthropic by default, ANTHROPIC_BASE_URL when set, and not probed for a cloud provider', () => {
    expect(claudeEndpoint({})).toEqual({ url: new URL('https://api.anthropic.com') });
    expect(claudeEndpoint({ ANTHROPIC_BASE_URL: 'https://gateway.example:8443/v1' })).toEqual({
      url: new URL('https://gateway.example:8443/v1'),
    });
    expect(claudeEndpoint({ CLAUDE_CODE_USE_BEDROCK: 'true' })).toMatchObject({
      skipped: expect.stringContaining('Bedrock'),
    });
    expect(claudeEndpoint({ ANTHROPIC_BASE_URL: 'not a url' })).toEqual({
      invalid: 'ANTHROPIC_BASE_URL=not a url is not a URL',
    });
  });
});

describe('isClaudeCodeVersion', () => {
  it.each([
    ['2.1.197 (Claude Code)', true],
    ['2.1.332 (Claude Code)\n', true],
    ['ralph scripted agent', false],
    ['1.0.0', false],
    ['2.1.197 (Claude Code) but not really', false],
  ])('%j → %s', (version, expected) => {
    expect(isClaudeCodeVersion(version)).toBe(expected);
  });
});
