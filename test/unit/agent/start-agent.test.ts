import { mkdtemp, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startAgent } from '../../../src/agent/start-agent.js';

describe('startAgent: a spawn the kernel refuses', () => {
  it('says the working directory is gone, not that the agent is missing, when the folder was deleted', async () => {
    const gone = await mkdtemp(join(tmpdir(), 'ralph-gone-'));
    await rmdir(gone);
    const started = await startAgent({ file: process.execPath, args: ['-e', ''] }, { PATH: '/usr/bin:/bin' }, gone);
    expect(started).toEqual({
      cause: `the agent could not be started: its working directory ${gone} no longer exists; restore the checkout, cd into it and run again`,
    });
  });

  it('still names a missing agent when the folder is there', async () => {
    const here = await mkdtemp(join(tmpdir(), 'ralph-here-'));
    const started = await startAgent({ file: join(here, 'no-such-agent'), args: [] }, { PATH: '/usr/bin:/bin' }, here);
    expect(started).toEqual({
      cause: `the agent could not be started: ${join(here, 'no-such-agent')} was not found (ENOENT); check agent.bin and PATH`,
    });
    await rmdir(here);
  });
});
