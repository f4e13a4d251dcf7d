/** What Claude Code sets for the commands it runs: a client started under it would take itself for nested. */
export const CLAUDE_SESSION_VARIABLES = ['CLAUDECODE'] as const;
