import { homedir } from 'node:os';
import type { AgentPreflight, AgentSetting } from '../preflight-types.js';
import { claudeEndpoint } from './endpoint.js';
import { CLAUDE_CI_LOGIN_FIX, CLAUDE_LOGIN_FIX, claudeLoginState } from './login-state.js';
import { detectCi } from '../../process/ci-environment.js';

/** How long `claude auth status` may take (it reads local files; it calls nothing paid). */
const AUTH_STATUS_TIMEOUT_MS = 10_000;

/** The real Claude Code's preflight: its login (variables, credential file, `claude auth status`) and its endpoint. */
export function claudePreflight(agent: AgentSetting): AgentPreflight {
  return {
    client: 'Claude Code',
    login: () =>
      claudeLoginState({
        env: agent.env,
        home: agent.env.HOME ?? homedir(),
        platform: process.platform,
        ...(hasAuthStatus(agent.version) ? { authStatus: () => authStatus(agent) } : {}),
      }),
    endpoint: () => claudeEndpoint(agent.env),
    loginFix: detectCi(agent.env).ci ? CLAUDE_CI_LOGIN_FIX : CLAUDE_LOGIN_FIX,
    networkFix: (url) =>
      `Claude Code would fail the same way, after minutes of retries per call. Check the network ` +
      '(behind a proxy set HTTPS_PROXY, and NO_PROXY for hosts it must not carry; behind a TLS-inspecting proxy set ' +
      `NODE_EXTRA_CA_CERTS to its CA file), test with \`curl -sI ${url.origin}\`, or pass --skip-preflight ` +
      'when a gateway of your own answers for it',
  };
}

/** `claude auth status` exists in 2.1 and later; an older client might take `auth status` for a prompt. */
function hasAuthStatus(version: string): boolean {
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > 2 || (major === 2 && minor >= 1);
}

async function authStatus({ ask }: AgentSetting): Promise<string | undefined> {
  const result = await ask(['auth', 'status'], { timeoutMs: AUTH_STATUS_TIMEOUT_MS, maxBytes: 64 * 1024 });
  // What it printed, even cut short: only a whole JSON answer counts.
  return result.error ? undefined : result.stdout;
}
