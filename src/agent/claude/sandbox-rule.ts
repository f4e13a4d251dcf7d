/**
 * Claude Code's root rule, as the installed client applies it. Read from the client itself
 * (@anthropic-ai/claude-code 2.1.197, its bundle):
 *
 *   process.getuid()===0 && process.env.IS_SANDBOX!=="1" && !Oe.CLAUDE_CODE_BUBBLEWRAP
 *     → "--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons"
 *
 * where `Oe.CLAUDE_CODE_BUBBLEWRAP` is its boolean variable ("1", "true", "yes", "on", any case,
 * trimmed). So IS_SANDBOX lifts the refusal only when it is exactly `1`: `yes`, `true`, ` 1` do not.
 * test/real-clients/claude.test.ts (npm run test:agents) checks this against the installed client.
 */
export const ROOT_RULE_READ_FROM = '2.1.197';

/** Whether Claude Code, started as root with --dangerously-skip-permissions in `env`, would start. */
export function liftsRootRefusal(env: NodeJS.ProcessEnv): boolean {
  return env.IS_SANDBOX === '1' || isClaudeBoolean(env.CLAUDE_CODE_BUBBLEWRAP);
}

/** IS_SANDBOX when it is set to something the client does not accept (a user meant it, and it does nothing). */
export function rejectedSandboxValue(env: NodeJS.ProcessEnv): string | undefined {
  const value = env.IS_SANDBOX;
  return value === undefined || value === '' || liftsRootRefusal(env) ? undefined : value;
}

/** How Claude Code reads its boolean variables: 1, true, yes or on, in any case, around spaces. */
export function isClaudeBoolean(value: string | undefined): boolean {
  return value !== undefined && ['1', 'true', 'yes', 'on'].includes(value.trim().toLowerCase());
}
