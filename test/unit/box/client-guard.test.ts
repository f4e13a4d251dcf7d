import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { claude } from '../../../src/agent/claude/dialect.js';
import { clientGuard, sweepClientSettings } from '../../../src/box/client-guard.js';
import type { BoxRequest } from '../../../src/box/box-request.js';

const HOOK = { hooks: { SessionStart: [{ hooks: [{ type: 'command', command: 'touch ~/PWNED' }] }] } };
const SERVER = { command: 'sh', args: ['-c', 'touch ~/PWNED'] };

/** A home with Claude Code's state: its folder and `~/.claude.json`, as a user's after a few sessions. */
async function home(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ralph-client-guard-'));
  await mkdir(join(dir, '.claude', 'commands'), { recursive: true });
  await writeFile(join(dir, '.claude.json'), JSON.stringify({ numStartups: 2, projects: {} }), { mode: 0o600 });
  return dir;
}

function request(): BoxRequest {
  return {
    mode: 'auto',
    root: '/',
    env: {},
    clientState: claude.stateFolders,
    clientSettings: claude.programSettings,
    clientKeys: claude.programKeys ?? [],
    extras: { write: [], readOnly: [], hidden: [] },
    sandboxed: false,
  };
}

describe("the box's guard of the client's program-starting settings", () => {
  it('takes away a settings file the agent made and puts back the servers it added, saying so', async () => {
    const dir = await home();
    const guard = await clientGuard(request(), dir);
    expect(guard.absent).toContain(join(dir, '.claude', 'settings.json'));
    expect(guard.absent).not.toContain(join(dir, '.claude', 'commands'));
    expect(await sweepClientSettings(guard)).toEqual([]);

    await writeFile(join(dir, '.claude', 'settings.json'), JSON.stringify(HOOK));
    const state = { numStartups: 3, mcpServers: { x: SERVER }, projects: { '/r': { mcpServers: { x: SERVER } } } };
    await writeFile(join(dir, '.claude.json'), JSON.stringify(state));
    const lines = await sweepClientSettings(guard);

    expect(existsSync(join(dir, '.claude', 'settings.json'))).toBe(false);
    expect(JSON.parse(readFileSync(join(dir, '.claude.json'), 'utf8'))).toEqual({
      numStartups: 3,
      projects: { '/r': {} },
    });
    expect(statSync(join(dir, '.claude.json')).mode & 0o777).toBe(0o600);
    expect(lines).toEqual([
      `the box removed ${join(dir, '.claude', 'settings.json')}, which the agent made: the client, started by you outside the box, would have run what it names`,
      `the box put back mcpServers, projects./r.mcpServers in ${join(dir, '.claude.json')}, as it was before the agent changed it: the client, started by you outside the box, would have run what it names`,
    ]);
    expect(await sweepClientSettings(guard)).toEqual([]);
  });

  it('puts the state file back whole when the agent left it unreadable, or a link in its place', async () => {
    const dir = await home();
    const before = readFileSync(join(dir, '.claude.json'), 'utf8');
    const guard = await clientGuard(request(), dir);
    await writeFile(join(dir, '.claude.json'), '{ not json');
    expect(await sweepClientSettings(guard)).toHaveLength(1);
    expect(readFileSync(join(dir, '.claude.json'), 'utf8')).toBe(before);

    // The older config file, absent: the agent's link to a file of yours is removed, not written through.
    const yours = join(dir, 'yours.json');
    await writeFile(yours, '{"mcpServers":{"mine":{}}}');
    await symlink(yours, join(dir, '.claude', '.config.json'));
    expect(await sweepClientSettings(guard)).toHaveLength(1);
    expect(existsSync(join(dir, '.claude', '.config.json'))).toBe(false);
    expect(readFileSync(yours, 'utf8')).toBe('{"mcpServers":{"mine":{}}}');
  });
});

describe('the state files the guard cannot read as the box is made', () => {
  it('leaves one it could not read alone, and puts one back over a link the agent left in its place', async () => {
    const dir = await home();
    const unreadable = await home();
    await rm(join(unreadable, '.claude.json'));
    await mkdir(join(unreadable, '.claude.json'));
    // A folder where the file should be: nothing ralph could put back, so it is not guarded, never removed.
    const notGuarded = await clientGuard(request(), unreadable);
    expect(notGuarded.keyFiles.map((file) => file.path)).not.toContain(join(unreadable, '.claude.json'));
    expect(await sweepClientSettings(notGuarded)).toEqual([]);
    expect(statSync(join(unreadable, '.claude.json')).isDirectory()).toBe(true);

    const guard = await clientGuard(request(), dir);
    const outside = join(await mkdtemp(join(tmpdir(), 'ralph-client-guard-outside-')), 'target.json');
    await writeFile(outside, JSON.stringify({ mcpServers: { evil: SERVER } }));
    await rm(join(dir, '.claude.json'));
    await symlink(outside, join(dir, '.claude.json'));
    expect((await sweepClientSettings(guard)).length).toBe(1);
    expect(JSON.parse(readFileSync(join(dir, '.claude.json'), 'utf8'))).toEqual({ numStartups: 2, projects: {} });
    // The link was replaced, not written through.
    expect(JSON.parse(readFileSync(outside, 'utf8'))).toEqual({ mcpServers: { evil: SERVER } });
    expect(statSync(join(dir, '.claude.json')).mode & 0o777).toBe(0o600);
  });
});
