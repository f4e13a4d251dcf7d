import { chmod, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { installedClientVersion } from '../../../src/agent/client-setup.js';
import { AGENT_KINDS, dialectOf, type AgentKind } from '../../../src/agent/dialects.js';

/** What each real client's `--version` printed (test/fixtures/claude/version.stdout, docs/agents.md). */
const PRINTED: Record<AgentKind, [string, string]> = {
  claude: ['2.1.197 (Claude Code)\n', '2.1.197'],
  codex: ['codex-cli 0.171.0\n', '0.171.0'],
  gemini: ['0.61.0\n', '0.61.0'],
  opencode: ['1.18.33\n', '1.18.33'],
  amp: ['0.0.1790142911-g7618fb (released 2026-09-10T18:01:51.000Z, 2mo ago)\n', '0.0.1790142911-g7618fb'],
};

async function executable(script: string): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'ralph-version-')), 'client');
  await writeFile(path, `#!/bin/sh\n${script}\n`);
  await chmod(path, 0o755);
  return path;
}

describe("each client's version, as init pins it in the workflow", () => {
  it.each(AGENT_KINDS.map((kind) => [kind] as const))('%s: read from what its --version prints', async (kind) => {
    const [printed, version] = PRINTED[kind];
    const { setup } = dialectOf(kind);
    expect(await installedClientVersion(await executable(`printf '%s' '${printed}'`), setup)).toBe(version);
  });

  it.each(AGENT_KINDS.map((kind) => [kind] as const))(
    '%s: none from a stand-in, a failing client or no client at all',
    async (kind) => {
      const { setup } = dialectOf(kind);
      expect(await installedClientVersion(await executable('echo "ralph scripted agent"'), setup)).toBeUndefined();
      expect(
        await installedClientVersion(await executable(`echo '${PRINTED[kind][0].trim()}'; exit 1`), setup),
      ).toBeUndefined();
      expect(await installedClientVersion(undefined, setup)).toBeUndefined();
    },
  );

  it('pins a default that is a version of its package, on a Node ralph itself runs on', () => {
    for (const kind of AGENT_KINDS) {
      const { setup } = dialectOf(kind);
      expect(setup.defaultVersion).toMatch(/^\d+\.\d+\.\d+/);
      expect(setup.node).toBeGreaterThanOrEqual(20);
      expect(dialectOf(kind).install).toBe(`npm install -g ${setup.package}`);
    }
  });
});
