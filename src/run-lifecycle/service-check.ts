import { answersVersion, preflightFor, type AgentPreflight } from '../agent/agent-preflight.js';
import { readAgentVersion } from '../agent/agent-version.js';
import type { AgentDialect } from '../agent/dialect.js';
import type { AskAgent } from '../agent/ask-agent.js';
import { RalphError } from '../errors.js';
import { failed, type Check } from './check.js';

/** What the agent's service checks read. */
export interface ServiceCheckOptions {
  /** The agent's executable, resolved. */
  agentPath: string;
  /** Its kind's dialect: how the real client names itself, and what it lets ralph check. */
  dialect: AgentDialect;
  agentEnv: NodeJS.ProcessEnv;
  /** Asks the agent's program its version and login: inside the run's box where it has one. */
  ask: AskAgent;
  /** --skip-preflight: a gateway of the user's own answers for the API; neither login nor network is probed. */
  skip: boolean;
  /** How long the API may take to answer (5 s; shorter in tests). */
  timeoutMs?: number;
}

const PROBE_TIMEOUT_MS = 5_000;

/**
 * The agent's version, then — for a client ralph knows, by that version — its login and its API's
 * reachability, before any paid call. A scripted stand-in is not probed.
 */
export async function checkService(options: ServiceCheckOptions): Promise<{ checks: Check[]; version?: string }> {
  const { dialect } = options;
  if (!answersVersion(options.agentPath, dialect))
    return {
      checks: [{ name: 'version', status: 'ok', detail: `not asked: only \`${dialect.bin}\` is asked its --version` }],
    };
  const version = await readAgentVersion(options.ask);
  const checks: Check[] = [
    version === undefined
      ? { name: 'version', status: 'warning', detail: 'the agent did not say its version (--version)' }
      : { name: 'version', status: 'ok', detail: version },
  ];
  const found = version === undefined ? {} : { version };
  const preflight =
    version === undefined ? undefined : preflightFor({ env: options.agentEnv, ask: options.ask, version }, dialect);
  if (preflight === undefined) return { checks, ...found };
  if (options.skip) {
    checks.push({ name: 'login', status: 'ok', detail: 'not checked (--skip-preflight)' });
    checks.push({ name: 'network', status: 'ok', detail: 'not checked (--skip-preflight)' });
    return { checks, ...found };
  }
  // Side by side: a client's own login command and a round trip to its API each take a tenth of
  // a second or more, and neither depends on the other. The checks keep their order.
  checks.push(...(await Promise.all([checkLogin(preflight), checkNetwork(preflight, options)])));
  return { checks, ...found };
}

async function checkLogin(preflight: AgentPreflight): Promise<Check> {
  const login = await preflight.login();
  if (login.state === 'missing')
    return failed(
      'login',
      new RalphError('setup', `${preflight.client} is not logged in (${login.detail})`, preflight.loginFix),
    );
  const detail = login.state === 'ok' ? login.detail : `unknown (${login.detail}): the run goes on`;
  return { name: 'login', status: 'ok', detail };
}

async function checkNetwork(preflight: AgentPreflight, options: ServiceCheckOptions): Promise<Check> {
  const endpoint = preflight.endpoint();
  if ('skipped' in endpoint) return { name: 'network', status: 'ok', detail: endpoint.skipped };
  if ('invalid' in endpoint)
    return failed(
      'network',
      new RalphError('setup', endpoint.invalid, 'set it to the URL of your API gateway, or unset it'),
    );
  const { url } = endpoint;
  // Loaded here, not at the top: TLS costs a run's start some 6 ms, and most runs never probe.
  const { probeEndpoint } = await import('../agent/reachability.js');
  const reach = await probeEndpoint(url, { env: options.agentEnv, timeoutMs: options.timeoutMs ?? PROBE_TIMEOUT_MS });
  if (reach.ok) return { name: 'network', status: 'ok', detail: `${url.origin} answers (HTTP ${reach.status})` };
  return failed(
    'network',
    new RalphError('setup', `cannot reach ${url.origin}: ${reach.reason}`, preflight.networkFix(url)),
  );
}
