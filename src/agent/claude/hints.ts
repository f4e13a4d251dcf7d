import type { FailureHints } from '../failure-words.js';

/** What to tell the user when Claude Code refuses to run as root: both ways out. */
export function setupFixHint(): string {
  return (
    'Claude Code refuses --dangerously-skip-permissions as root. Run ralph as a normal (non-root) user, ' +
    'or, inside a container or CI runner you trust, set IS_SANDBOX=1 in the environment to lift the refusal.'
  );
}

/** What to tell the user when the agent cannot reach the API: the network, a proxy, a CA, and how to check. */
export function networkFixHint(): string {
  return (
    'the agent cannot reach the Anthropic API, and every further call would wait minutes for the same. Check the network ' +
    '(behind a proxy set HTTPS_PROXY; behind a TLS-inspecting proxy set NODE_EXTRA_CA_CERTS to its CA file), test reachability ' +
    'with `curl -sI https://api.anthropic.com`, then run again'
  );
}

/** Claude Code's fixes, as an ending names them. */
export const CLAUDE_HINTS: FailureHints = {
  auth: 'log the agent in (run `claude` once, or set ANTHROPIC_API_KEY), then run again',
  setup: setupFixHint(),
  network: networkFixHint(),
  credits:
    'add credits (claude.ai/settings/usage) or choose a model your plan covers (agent.args in ralph/config.json)',
};
