import { basename } from 'node:path';
import type { RootRule } from '../root-rule.js';
import { setupFixHint } from './hints.js';
import { liftsRootRefusal, rejectedSandboxValue } from './sandbox-rule.js';

/**
 * Whether the agent is Claude Code started so that it refuses root: its executable is named
 * `claude` and it gets --dangerously-skip-permissions. Another agent (--agent-bin) is not judged.
 */
export function isClaudeCodeSkippingPermissions(agentBin: string, skipPermissions: boolean): boolean {
  return skipPermissions && basename(agentBin) === 'claude';
}

/**
 * The refusal Claude Code would give, said before any call — with the same fix. Its rule is the
 * client's own (sandbox-rule.ts): IS_SANDBOX=yes is named, since the user meant it.
 */
export const CLAUDE_ROOT_RULE: RootRule = {
  applies: isClaudeCodeSkippingPermissions,
  liftedBy: (env) =>
    !liftsRootRefusal(env)
      ? undefined
      : env.IS_SANDBOX === '1'
        ? 'root, with IS_SANDBOX=1'
        : 'root, in a bubblewrap sandbox (CLAUDE_CODE_BUBBLEWRAP)',
  refusal: (env) => {
    const rejected = rejectedSandboxValue(env);
    if (rejected !== undefined)
      return {
        message: `running as root with IS_SANDBOX=${JSON.stringify(rejected).slice(1, -1)}, which Claude Code does not accept (only IS_SANDBOX=1 lifts its root refusal)`,
        hint: 'set IS_SANDBOX=1 (exactly 1) in a container or CI runner you trust, or run ralph as a normal (non-root) user',
      };
    return { message: 'running as root without IS_SANDBOX', hint: setupFixHint() };
  },
  notApplying: 'root, but the agent is not claude with --dangerously-skip-permissions',
  advice: (env) => {
    const rejected = rejectedSandboxValue(env);
    return rejected === undefined
      ? 'You are root: run ralph as a normal user, or set IS_SANDBOX=1 in a container you trust.'
      : `You are root, and IS_SANDBOX=${JSON.stringify(rejected).slice(1, -1)} does not lift Claude Code's refusal: set IS_SANDBOX=1 (exactly 1) in a container you trust, or run ralph as a normal user.`;
  },
};
