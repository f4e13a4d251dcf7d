import type { AskAgent } from './ask-agent.js';

/** Whether the agent is logged in, as far as ralph can tell without a paid call. */
export type LoginState = 'ok' | 'missing' | 'unknown';

/** A login state with what it was read from. */
export interface LoginReading {
  state: LoginState;
  detail: string;
}

/** Where the agent's API is, for the reachability probe: a URL, or why it is not probed, or a bad setting. */
export type ServiceEndpoint = { url: URL } | { skipped: string } | { invalid: string };

/**
 * What ralph checks of an agent it knows before the first paid call: its login and its API's
 * endpoint. Each client (`src/agent/<client>/`) says how; the run's start checks only call this.
 */
export interface AgentPreflight {
  /** The client's name, as the checks say it. */
  client: string;
  login(): Promise<LoginReading>;
  endpoint(): ServiceEndpoint;
  /** How to log in, for a failed login check. */
  loginFix: string;
  /** What to check when the endpoint cannot be reached. */
  networkFix(url: URL): string;
}

/** What the agent is started with, for its preflight. */
export interface AgentSetting {
  env: NodeJS.ProcessEnv;
  /** Asks its program a question, inside the run's box where it has one (ask-agent.ts). */
  ask: AskAgent;
  /** The first line of its `--version`. */
  version: string;
}
