import type { StartingKeys } from '../../domain/starting-keys.js';

/** Its two config homes: `~/.claude` and the XDG one newer builds also read. */
const HOMES = ['.claude', '.config/claude'];

/**
 * What Claude Code reads from its config home and acts on when you next start it: the settings'
 * hooks, MCP servers and enabled plugins (`settings.local.json` too, for a session started in your
 * home), the commands, subagents, skills and hook scripts, and the memory it follows. Not `plugins`:
 * the client makes that folder on its first start (the real client, in test/real-clients), and a
 * plugin there runs only once the settings enable it.
 */
export const CLAUDE_PROGRAM_SETTINGS: readonly string[] = HOMES.flatMap((home) =>
  ['settings.json', 'settings.local.json', 'commands', 'agents', 'skills', 'hooks', 'CLAUDE.md'].map(
    (name) => `${home}/${name}`,
  ),
);

/**
 * `~/.claude.json` is rewritten by Claude Code on every start, so it stays writable; these of its
 * keys start MCP servers or let a folder's own settings and servers run unasked. Its older builds
 * read `~/.claude/.config.json` in its place when that exists.
 */
export const CLAUDE_PROGRAM_KEYS: readonly StartingKeys[] = ['.claude.json', '.claude/.config.json'].map((file) => ({
  file,
  keys: [
    ['mcpServers'],
    ...[
      'mcpServers',
      'enabledMcpjsonServers',
      'enableAllProjectMcpServers',
      'hasTrustDialogAccepted',
      'allowedTools',
    ].map((key) => ['projects', '*', key]),
  ],
}));
