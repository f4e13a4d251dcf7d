import type { AgentPreflight, AgentSetting, LoginReading, ServiceEndpoint } from '../preflight-types.js';
import { endpointFrom } from '../service-endpoint.js';

/** `codex login status` reads local files: it answers in well under a second (0.07 s seen). */
const LOGIN_STATUS_TIMEOUT_MS = 10_000;

/**
 * Codex's login and endpoint. It goes to the network whatever its login, so without one the first
 * call would only learn it from a 401; `codex login status` says it for free (exit 1, "Not logged
 * in"). An API key in the environment counts as a login.
 */
export function codexPreflight(agent: AgentSetting): AgentPreflight {
  return {
    client: 'Codex',
    login: () => codexLogin(agent),
    endpoint: () => codexEndpoint(agent.env),
    loginFix: 'run `codex login` (or set OPENAI_API_KEY and run `codex login --with-api-key`), then run again',
    networkFix: (url) =>
      `Codex would only retry, for good, without a network. Check the network (behind a proxy set HTTPS_PROXY), ` +
      `test with \`curl -sI ${url.origin}\`, or pass --skip-preflight when a gateway of your own answers for it`,
  };
}

export async function codexLogin({ env, ask }: AgentSetting): Promise<LoginReading> {
  const variable = ['OPENAI_API_KEY', 'CODEX_API_KEY'].find((name) => (env[name] ?? '').trim() !== '');
  if (variable) return { state: 'ok', detail: `${variable} is set` };
  const result = await ask(['login', 'status'], { timeoutMs: LOGIN_STATUS_TIMEOUT_MS, maxBytes: 64 * 1024 });
  const said = `${result.stdout}\n${result.stderr}`;
  if (/\bNot logged in\b/i.test(said)) return { state: 'missing', detail: '`codex login status` says not logged in' };
  if (result.exitCode === 0) return { state: 'ok', detail: '`codex login status` says logged in' };
  return { state: 'unknown', detail: '`codex login status` did not say' };
}

/** Where Codex sends its calls: OPENAI_BASE_URL when set, else OpenAI's API. */
function codexEndpoint(env: NodeJS.ProcessEnv): ServiceEndpoint {
  return endpointFrom(env, 'OPENAI_BASE_URL', 'https://api.openai.com');
}
