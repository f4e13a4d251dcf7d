import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AgentPreflight, AgentSetting, LoginReading, ServiceEndpoint } from '../preflight-types.js';
import { endpointFrom } from '../service-endpoint.js';
import { peekClientFile } from '../../files/read-cap.js';

/**
 * Amp's login and server. Without a key it prints a login URL and waits for a pasted code; without
 * its server it ends after a second (`Couldn't connect to the Amp server`). Both are read first,
 * with no call: AMP_API_KEY, or the token `amp login` keeps in `~/.local/share/amp/secrets.json`
 * (as `"apiKey@<server URL>"`); and one request to the server (AMP_URL, else ampcode.com).
 */
export function ampPreflight(agent: AgentSetting): AgentPreflight {
  return {
    client: 'Amp',
    login: () => ampLogin(agent.env),
    endpoint: () => endpointFrom(agent.env, 'AMP_URL', 'https://ampcode.com'),
    loginFix: 'set AMP_API_KEY (an access token from ampcode.com/settings), or run `amp login`, then run again',
    networkFix: (url) =>
      `Amp cannot work without its server. Check the network (behind a proxy set HTTPS_PROXY), ` +
      `test with \`curl -sI ${url.origin}\`, or pass --skip-preflight when a server of your own answers for it`,
  };
}

export async function ampLogin(env: NodeJS.ProcessEnv): Promise<LoginReading> {
  if ((env.AMP_API_KEY ?? '').trim() !== '') return { state: 'ok', detail: 'AMP_API_KEY is set' };
  const data = env.XDG_DATA_HOME?.trim() || join(env.HOME ?? homedir(), '.local', 'share');
  const secrets = join(data, 'amp', 'secrets.json');
  // The client's state is the agent's to write: a FIFO there is no secrets file, and no hang.
  const text = await peekClientFile(secrets);
  if (text === undefined) return { state: 'missing', detail: `no AMP_API_KEY, and no ${secrets}` };
  const server = serverOf(env);
  if (server !== undefined && text.includes(`"apiKey@${server}`))
    return { state: 'ok', detail: `a token for ${server} is in ${secrets}` };
  if (/"apiKey@/.test(text)) return { state: 'unknown', detail: `${secrets} holds a token for another server` };
  return { state: 'missing', detail: `no AMP_API_KEY, and no token in ${secrets}` };
}

/** The server's origin as Amp keys its secrets (`https://ampcode.com`); undefined for a bad AMP_URL. */
function serverOf(env: NodeJS.ProcessEnv): string | undefined {
  const endpoint: ServiceEndpoint = endpointFrom(env, 'AMP_URL', 'https://ampcode.com');
  return 'url' in endpoint ? endpoint.url.origin : undefined;
}
