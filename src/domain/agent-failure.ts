import type { ExhaustedCause, LimitReset, ServerBusy } from './usage.js';

/** How an agent that failed on its own failed, read from its own error output only. */
export type AgentFailure =
  /** The agent is not logged in: no further iteration can fix it. */
  | { kind: 'auth'; message: string }
  /** The client cannot work here: it refuses to start, or (`network`) cannot reach the API. */
  | { kind: 'setup'; message: string; cause?: 'network' }
  /** A usage limit: its reset and the evidence for it when the agent gave one; `exhausted` when no wait lifts it. */
  | { kind: 'usage_limit'; message: string; reset?: LimitReset; exhausted?: ExhaustedCause }
  /** Any other failure; `busy` when the server throttled or was overloaded (retried after a pause). */
  | { kind: 'error'; lines: string[]; busy?: ServerBusy };

/** A failure no further iteration can fix: not logged in, or the client cannot work in this environment. */
export type FatalAgentFailure = Extract<AgentFailure, { kind: 'auth' | 'setup' }>;

/** What to tell the user when the client refuses to run as root: both ways out. */
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
