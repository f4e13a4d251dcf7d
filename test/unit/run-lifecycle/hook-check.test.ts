import { execFileSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NPX_STOP_HOOK_COMMAND, STOP_HOOK } from '../../../src/agent/claude/stop-hook-settings.js';
import { checkStopHook } from '../../../src/run-lifecycle/hook-check.js';

/** A repository whose `.claude/<file>` registers `command` as its Stop hook (none: no file). */
async function repoWithHook(command?: string, file = 'settings.json'): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'ralph-hook-check-'));
  await mkdir(join(root, '.claude'));
  if (command !== undefined) {
    const settings = { hooks: { Stop: [{ hooks: [{ ...STOP_HOOK, command }] }] } };
    await writeFile(join(root, '.claude', file), JSON.stringify(settings));
  }
  return root;
}

/** A folder holding an executable `ralph`, for the agent's PATH. */
async function folderWithRalph(): Promise<string> {
  const bin = await mkdtemp(join(tmpdir(), 'ralph-hook-bin-'));
  await writeFile(join(bin, 'ralph'), '#!/bin/sh\n');
  await chmod(join(bin, 'ralph'), 0o755);
  return bin;
}

/** The check for Claude Code started with this PATH. */
const check = (root: string, path: string) =>
  checkStopHook(root, { cwd: root, agentBin: 'claude', agentEnv: { PATH: path } });

describe("checkStopHook: will Claude Code's Stop hook start?", () => {
  it("is fine when the ralph it names is on the agent's PATH", async () => {
    const root = await repoWithHook('ralph hook stop');
    expect(await check(root, await folderWithRalph())).toEqual({
      name: 'stop hook',
      status: 'ok',
      detail: 'ralph hook stop',
    });
  });

  it("warns when no ralph is on the agent's PATH: every stop would go unchecked", async () => {
    const root = await repoWithHook('ralph hook stop');
    expect(await check(root, '/nowhere')).toEqual({
      name: 'stop hook',
      status: 'warning',
      detail: `"ralph hook stop" cannot start: no ralph on the agent's PATH, so every stop goes unchecked — put ralph on it (\`npm link\` in ralph's folder, or \`npm install -g\` a release's .tgz: README, "ralph on your PATH"), or, with ralph-loop-cli a dev dependency of the project, register "${NPX_STOP_HOOK_COMMAND}" instead`,
    });
  });

  it('looks for no ralph on PATH when the hook starts it through npx or by its path', async () => {
    for (const command of [NPX_STOP_HOOK_COMMAND, './node_modules/.bin/ralph hook stop']) {
      const root = await repoWithHook(command);
      expect(await check(root, '/nowhere')).toMatchObject({ status: 'ok', detail: command });
    }
  });

  it('finds the hook in settings.local.json too, as Claude Code does', async () => {
    const root = await repoWithHook('ralph hook stop', 'settings.local.json');
    expect(await check(root, await folderWithRalph())).toMatchObject({ status: 'ok' });
  });

  it('warns when the hook is not registered at all', async () => {
    const root = await repoWithHook();
    expect(await check(root, await folderWithRalph())).toMatchObject({
      status: 'warning',
      detail: 'not in .claude/settings.json: nothing checks each stop of the agent (ralph init adds it)',
    });
    const other = await repoWithHook('another-tool hook stop');
    expect((await check(other, '/nowhere'))?.status).toBe('warning');
  });

  it('warns, never throws, when the settings cannot be read', async () => {
    const root = await repoWithHook();
    await mkdir(join(root, '.claude', 'settings.json'));
    expect(await check(root, '/nowhere')).toMatchObject({
      status: 'warning',
      detail: expect.stringMatching(
        /^cannot read \.claude\/settings\.json \(.*settings\.json is a folder, not a regular file\), so whether it starts is unknown$/,
      ),
    });
  });

  it('checks nothing for another agent, or for a sandbox where ralph cannot look', async () => {
    const root = await repoWithHook();
    expect(await checkStopHook(root, { cwd: root, agentBin: './my-agent.sh', agentEnv: {} })).toBeUndefined();
    expect(await checkStopHook(root, { cwd: root, agentEnv: {} })).toBeUndefined();
  });

  it('warns, without waiting, when the agent put a FIFO in place of a settings file', async () => {
    const root = await repoWithHook('ralph hook stop');
    execFileSync('mkfifo', [join(root, '.claude/settings.local.json')]);
    expect(await check(root, await folderWithRalph())).toMatchObject({
      status: 'warning',
      detail: expect.stringMatching(
        /^cannot read \.claude\/settings\.local\.json \(.*is a FIFO \(named pipe\), not a regular file\)/,
      ),
    });
  });
});
