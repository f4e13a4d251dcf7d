import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
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
