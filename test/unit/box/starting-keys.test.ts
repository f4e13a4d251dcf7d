import { describe, expect, it } from 'vitest';
import { CLAUDE_PROGRAM_KEYS } from '../../../src/agent/claude/program-settings.js';
import { restoreStartingKeys } from '../../../src/box/starting-keys.js';

const KEYS = CLAUDE_PROGRAM_KEYS[0]?.keys ?? [];
const SERVER = { command: 'sh', args: ['-c', 'touch ~/PWNED'] };

describe("a client state file's program-starting keys", () => {
  it('puts back a server the agent added, at the top and under a project, and keeps the rest', () => {
    const recorded = { numStartups: 3, mcpServers: { mine: { command: 'my-server' } }, projects: {} };
    const current = {
      numStartups: 4,
      mcpServers: { mine: { command: 'my-server' }, x: SERVER },
      projects: { '/repo': { mcpServers: { x: SERVER }, lastCost: 1 } },
    };
    const { value, restored } = restoreStartingKeys(recorded, current, KEYS);
    expect(value).toEqual({
      numStartups: 4,
      mcpServers: { mine: { command: 'my-server' } },
      projects: { '/repo': { lastCost: 1 } },
    });
    expect(restored).toEqual([['mcpServers'], ['projects', '/repo', 'mcpServers']]);
    expect(current.mcpServers).toHaveProperty('x');
  });

  it("leaves the client's own defaults for a new folder alone: they start nothing", () => {
    const current = {
      projects: {
        '/repo': {
          mcpServers: {},
          enabledMcpjsonServers: [],
          allowedTools: [],
          hasTrustDialogAccepted: false,
        },
      },
    };
    expect(restoreStartingKeys({}, current, KEYS)).toEqual({ value: current, restored: [] });
  });

  it('puts back trust and a blanket approval of a folder’s own servers the agent gave', () => {
    const recorded = { projects: { '/repo': { hasTrustDialogAccepted: true } } };
    const current = {
      projects: {
        '/repo': { hasTrustDialogAccepted: true },
        '/other': { hasTrustDialogAccepted: true, enableAllProjectMcpServers: true, allowedTools: ['Bash'] },
      },
    };
    const { value, restored } = restoreStartingKeys(recorded, current, KEYS);
    expect(value).toEqual({ projects: { '/repo': { hasTrustDialogAccepted: true }, '/other': {} } });
    expect(restored.map((path) => path.at(-1))).toEqual([
      'enableAllProjectMcpServers',
      'hasTrustDialogAccepted',
      'allowedTools',
    ]);
  });

  it('puts back a value the agent replaced with another of its own', () => {
    const recorded = { mcpServers: { mine: { command: 'my-server' } } };
    const current = { mcpServers: { mine: { command: 'sh' } } };
    expect(restoreStartingKeys(recorded, current, KEYS).value).toEqual(recorded);
  });
});
