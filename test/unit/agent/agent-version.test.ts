import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readAgentVersion } from '../../../src/agent/agent-version.js';
import { askAgent } from '../../../src/agent/ask-agent.js';

/** A real executable standing in for the agent, answering `--version` with the script's body. */
async function agent(body: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ralph-agent-version-'));
  const path = join(dir, 'agent');
  await writeFile(path, `#!/bin/sh\n[ "$1" = --version ] || exit 9\n${body}\n`);
  await chmod(path, 0o755);
  return path;
}

describe('readAgentVersion', () => {
  it("is the first line that says something, without the agent's control characters", async () => {
    const path = await agent(String.raw`printf '\n  \033[31m2.1.197 (Claude Code)\033[0m\nmore\n'`);
    expect(await readAgentVersion(askAgent(path, { PATH: '/usr/bin:/bin' }, tmpdir()))).toBe(
      '[31m2.1.197 (Claude Code)[0m',
    );
  });

  it('runs with the environment given and nothing of ralph’s', async () => {
    const path = await agent('echo "${ONLY-} ${HOME-none}"');
    expect(await readAgentVersion(askAgent(path, { ONLY: 'v1' }, tmpdir()))).toBe('v1 none');
  });

  it('is undefined when the agent fails, says nothing, prints without end or is missing', async () => {
    expect(await readAgentVersion(askAgent(await agent('echo 1.0; exit 1'), {}, tmpdir()))).toBeUndefined();
    expect(await readAgentVersion(askAgent(await agent('exit 0'), {}, tmpdir()))).toBeUndefined();
    // More than the 64 KiB kept: stopped, not read from a part.
    expect(
      await readAgentVersion(askAgent(await agent('exec yes 1.0'), { PATH: '/usr/bin:/bin' }, tmpdir())),
    ).toBeUndefined();
    expect(await readAgentVersion(askAgent('/nonexistent/agent', {}, tmpdir()))).toBeUndefined();
  });

  it('cuts a long line to 120 characters', async () => {
    expect(await readAgentVersion(askAgent(await agent(`echo ${'v'.repeat(300)}`), {}, tmpdir()))).toBe(
      'v'.repeat(120),
    );
  });
});
