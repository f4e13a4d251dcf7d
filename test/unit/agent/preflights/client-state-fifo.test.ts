import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ampLogin } from '../../../../src/agent/amp/preflight.js';
import { geminiLogin } from '../../../../src/agent/gemini/preflight.js';
import { readOpencodeConfig } from '../../../../src/agent/opencode/config.js';
import { opencodeLogin } from '../../../../src/agent/opencode/preflight.js';

/** A home whose client-state file at `file` is a FIFO: the agent writes the client's state in its box. */
async function homeWithFifo(file: string): Promise<string> {
  const home = await mkdtemp(join(tmpdir(), 'ralph-client-fifo-'));
  await mkdir(dirname(join(home, file)), { recursive: true });
  execFileSync('mkfifo', [join(home, file)]);
  return home;
}

describe('a FIFO in the client’s state is no file, and no hang', () => {
  it('Gemini’s settings.json', async () => {
    const HOME = await homeWithFifo('.gemini/settings.json');
    expect(await geminiLogin({ HOME })).toMatchObject({ state: 'missing' });
  });

  it('Amp’s secrets.json', async () => {
    const HOME = await homeWithFifo('.local/share/amp/secrets.json');
    expect(await ampLogin({ HOME })).toMatchObject({ state: 'missing' });
  });

  it('OpenCode’s config and auth.json', async () => {
    const HOME = await homeWithFifo('.config/opencode/opencode.json');
    execFileSync('mkfifo', [join(HOME, '.config/opencode/auth.json')]);
    const config = readOpencodeConfig({ HOME });
    expect(config.providers).toEqual({});
    const auth = await homeWithFifo('.local/share/opencode/auth.json');
    const withModel = { ...config, model: 'anthropic/claude' };
    expect(await opencodeLogin(withModel, { HOME: auth })).toMatchObject({ state: 'missing' });
  });
});
