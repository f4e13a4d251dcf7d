import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AgentPreflight, AgentSetting, LoginReading, ServiceEndpoint } from '../preflight-types.js';
import { endpointFrom } from '../service-endpoint.js';
import { peekClientFile } from '../../files/read-cap.js';

/** The variables Gemini CLI names when it has no auth method (0.61, its exit-41 message). */
const GEMINI_AUTH_VARIABLES = ['GEMINI_API_KEY', 'GOOGLE_API_KEY', 'GOOGLE_GENAI_USE_VERTEXAI', 'GOOGLE_GENAI_USE_GCA'];

/**
 * Gemini CLI's login and endpoint. Without an auth method it exits 41 after two seconds, on stderr
 * only; the same is read beforehand from its variables and `~/.gemini/settings.json`'s selected auth
 * type, with no call.
 */
export function geminiPreflight(agent: AgentSetting): AgentPreflight {
  return {
    client: 'Gemini CLI',
    login: () => geminiLogin(agent.env),
    endpoint: () => geminiEndpoint(agent.env),
    loginFix: 'set GEMINI_API_KEY, or run `gemini` once and choose how to log in, then run again',
    networkFix: (url) =>
      `Gemini CLI would retry for minutes per call. Check the network (behind a proxy set HTTPS_PROXY), ` +
      `test with \`curl -sI ${url.origin}\`, or pass --skip-preflight when a gateway of your own answers for it`,
  };
}

export async function geminiLogin(env: NodeJS.ProcessEnv): Promise<LoginReading> {
  const variable = GEMINI_AUTH_VARIABLES.find((name) => (env[name] ?? '').trim() !== '');
  if (variable) return { state: 'ok', detail: `${variable} is set` };
  const settings = join(env.HOME ?? homedir(), '.gemini', 'settings.json');
  // The client's state is the agent's to write: a FIFO there is no settings file, and no hang.
  const text = await peekClientFile(settings);
  if (text === undefined) return { state: 'missing', detail: `no auth variable, and no ${settings}` };
  if (/"selectedType"\s*:\s*"[^"]+"/.test(text))
    return { state: 'ok', detail: `an auth type is selected in ${settings}` };
  return { state: 'unknown', detail: `${settings} names no auth type ralph can read` };
}

/** Where Gemini CLI sends its calls: GOOGLE_GEMINI_BASE_URL when set, else Google's API; Vertex is not probed. */
function geminiEndpoint(env: NodeJS.ProcessEnv): ServiceEndpoint {
  if ((env.GOOGLE_GENAI_USE_VERTEXAI ?? '').trim() !== '')
    return { skipped: 'Vertex AI set-up: its endpoint is not probed' };
  return endpointFrom(env, 'GOOGLE_GEMINI_BASE_URL', 'https://generativelanguage.googleapis.com');
}
