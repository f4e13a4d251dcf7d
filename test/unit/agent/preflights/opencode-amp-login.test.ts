import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ampLogin, ampPreflight } from '../../../../src/agent/amp/preflight.js';
import { readOpencodeConfig } from '../../../../src/agent/opencode/config.js';
import { opencodeEndpoint, opencodeLogin, opencodePreflight } from '../../../../src/agent/opencode/preflight.js';
import { opencode } from '../../../../src/agent/opencode/dialect.js';

const home = () => mkdtemp(join(tmpdir(), 'ralph-preflight-'));
/** These preflights read files and variables only: the client is never asked. */
const NOT_ASKED = () => Promise.reject(new Error('not asked'));
const setting = (env: NodeJS.ProcessEnv) => ({ env, ask: NOT_ASKED, version: '1.18.33' });

describe('Amp login and server, read without a call', () => {
  it('is there with AMP_API_KEY, or a token for its server in the secrets file `amp login` writes', async () => {
    expect((await ampLogin({ AMP_API_KEY: 'sgamp_x', HOME: await home() })).state).toBe('ok');
    const empty = await home();
    expect(await ampLogin({ HOME: empty })).toMatchObject({ state: 'missing' });
    await mkdir(join(empty, '.local/share/amp'), { recursive: true });
    await writeFile(join(empty, '.local/share/amp/secrets.json'), '{"apiKey@https://ampcode.com/":"sgamp_user_x"}');
    expect((await ampLogin({ HOME: empty })).state).toBe('ok');
    // A token for another server than AMP_URL's is no login for it, and ralph says it cannot tell.
    expect((await ampLogin({ HOME: empty, AMP_URL: 'http://127.0.0.1:9' })).state).toBe('unknown');
    await writeFile(join(empty, '.local/share/amp/secrets.json'), '{}');
    expect((await ampLogin({ HOME: empty })).state).toBe('missing');
  });

  it('probes AMP_URL when set, else ampcode.com, and says a bad AMP_URL', () => {
    const endpoint = (env: NodeJS.ProcessEnv) => ampPreflight({ env, ask: NOT_ASKED, version: '' }).endpoint();
    expect(endpoint({})).toEqual({ url: new URL('https://ampcode.com') });
    expect(endpoint({ AMP_URL: 'http://127.0.0.1:8080' })).toEqual({ url: new URL('http://127.0.0.1:8080') });
    expect(endpoint({ AMP_URL: 'ampcode' })).toMatchObject({ invalid: expect.stringContaining('AMP_URL') });
  });
});

describe("OpenCode's provider login and endpoint, read from the user's config without a call", () => {
  it('with no config: the free default model needs no key; its endpoint is opencode.ai', async () => {
    const env = { HOME: await home() };
    const config = readOpencodeConfig(env);
    expect((await opencodeLogin(config, env)).state).toBe('ok');
    expect(opencodeEndpoint(config)).toEqual({ url: new URL('https://opencode.ai') });
    expect(opencode.preflight?.(setting(env))?.client).toBe('OpenCode');
  });

  it("a known provider's model needs its key: in the config, its variable, or auth.json", async () => {
    const dir = await home();
    const env: NodeJS.ProcessEnv = { HOME: dir, OPENCODE_CONFIG_CONTENT: '{"model":"anthropic/claude-sonnet-4"}' };
    expect(await opencodeLogin(readOpencodeConfig(env), env)).toMatchObject({ state: 'missing' });
    expect(opencodeEndpoint(readOpencodeConfig(env))).toEqual({ url: new URL('https://api.anthropic.com') });
    expect((await opencodeLogin(readOpencodeConfig(env), { ...env, ANTHROPIC_API_KEY: 'k' })).state).toBe('ok');
    await mkdir(join(dir, '.local/share/opencode'), { recursive: true });
    await writeFile(join(dir, '.local/share/opencode/auth.json'), '{"anthropic":{"type":"api","key":"k"}}');
    expect((await opencodeLogin(readOpencodeConfig(env), env)).state).toBe('ok');
  });

  it("probes a provider's own baseURL (a gateway, a local stand-in), from the user's config file", async () => {
    const dir = await home();
    await mkdir(join(dir, '.config/opencode'), { recursive: true });
    const config = {
      model: 'local/m',
      provider: {
        local: { npm: '@ai-sdk/openai-compatible', options: { baseURL: 'http://127.0.0.1:9/v1', apiKey: 'x' } },
      },
    };
    await writeFile(join(dir, '.config/opencode/opencode.json'), JSON.stringify(config));
    const preflight = opencodePreflight(setting({ HOME: dir }));
    expect(preflight.endpoint()).toEqual({ url: new URL('http://127.0.0.1:9/v1') });
    expect((await preflight.login()).state).toBe('ok');
    const unknownProvider = { HOME: dir, OPENCODE_CONFIG_CONTENT: '{"model":"mine/m"}' };
    expect(opencodePreflight(setting(unknownProvider)).endpoint()).toMatchObject({ skipped: expect.any(String) });
    expect((await opencodePreflight(setting(unknownProvider)).login()).state).toBe('unknown');
    const bad = { OPENCODE_CONFIG_CONTENT: '{"model":"p/m","provider":{"p":{"options":{"baseURL":"nowhere"}}}}' };
    expect(opencodePreflight(setting(bad)).endpoint()).toMatchObject({ invalid: expect.stringContaining('baseURL') });
  });
});
