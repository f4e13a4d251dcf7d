import { chmod, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { askAgent } from '../../../../src/agent/ask-agent.js';
import { codexLogin } from '../../../../src/agent/codex/preflight.js';
import { geminiLogin } from '../../../../src/agent/gemini/preflight.js';

/** A stand-in `codex` whose `login status` prints `said` and exits `code`, as 0.171 does. */
async function fakeCodex(said: string, code: number): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ralph-codex-'));
  const path = join(dir, 'codex');
  await writeFile(path, `#!/bin/sh\n[ "$1 $2" = "login status" ] || exit 9\necho '${said}'\nexit ${code}\n`);
  await chmod(path, 0o755);
  return path;
}

/** What the preflight gets: the fake client asked directly, with the environment given. */
function setting(path: string, env: NodeJS.ProcessEnv) {
  return { env, ask: askAgent(path, env, tmpdir()), version: '' };
}

describe('Codex login, read without a call', () => {
  it('takes an API key variable as a login, without asking the client', async () => {
    const path = await fakeCodex('Not logged in', 1);
    expect(await codexLogin(setting(path, { OPENAI_API_KEY: 'sk-x' }))).toEqual({
      state: 'ok',
      detail: 'OPENAI_API_KEY is set',
    });
  });

  it("reads `codex login status`: its real 'Not logged in' is missing, a login is ok, silence is unknown", async () => {
    const asked = async (said: string, code: number) => setting(await fakeCodex(said, code), {});
    expect((await codexLogin(await asked('Not logged in', 1))).state).toBe('missing');
    expect((await codexLogin(await asked('Logged in using ChatGPT', 0))).state).toBe('ok');
    expect((await codexLogin(await asked('', 2))).state).toBe('unknown');
  });
});

describe('Gemini CLI login, read without a call', () => {
  it('is there with one of the variables its own exit-41 message names, or an auth type in its settings', async () => {
    expect((await geminiLogin({ GEMINI_API_KEY: 'k' })).state).toBe('ok');
    expect((await geminiLogin({ GOOGLE_GENAI_USE_VERTEXAI: 'true' })).state).toBe('ok');
    const home = await mkdtemp(join(tmpdir(), 'ralph-gemini-'));
    expect(await geminiLogin({ HOME: home })).toMatchObject({ state: 'missing' });
    await mkdir(join(home, '.gemini'));
    await writeFile(join(home, '.gemini/settings.json'), '{"security":{"auth":{"selectedType":"oauth-personal"}}}');
    expect((await geminiLogin({ HOME: home })).state).toBe('ok');
    await writeFile(join(home, '.gemini/settings.json'), '{"theme":"dark"}');
    expect((await geminiLogin({ HOME: home })).state).toBe('unknown');
  });
});
