import { homedir } from 'node:os';
import { join } from 'node:path';
import type { AgentPreflight, AgentSetting, LoginReading, ServiceEndpoint } from '../preflight-types.js';
import { endpointFrom } from '../service-endpoint.js';
import { opencodeModel, readOpencodeConfig, type OpencodeConfig } from './config.js';
import { peekClientFile } from '../../files/read-cap.js';

/** Where each provider ralph knows sends its calls, and the variable that holds its key. */
const PROVIDERS: Record<string, { url: string; keys: string[] }> = {
  opencode: { url: 'https://opencode.ai', keys: ['OPENCODE_API_KEY'] },
  anthropic: { url: 'https://api.anthropic.com', keys: ['ANTHROPIC_API_KEY'] },
  openai: { url: 'https://api.openai.com', keys: ['OPENAI_API_KEY'] },
  google: {
    url: 'https://generativelanguage.googleapis.com',
    keys: ['GOOGLE_GENERATIVE_AI_API_KEY', 'GEMINI_API_KEY'],
  },
  openrouter: { url: 'https://openrouter.ai', keys: ['OPENROUTER_API_KEY'] },
  groq: { url: 'https://api.groq.com', keys: ['GROQ_API_KEY'] },
  mistral: { url: 'https://api.mistral.ai', keys: ['MISTRAL_API_KEY'] },
  deepseek: { url: 'https://api.deepseek.com', keys: ['DEEPSEEK_API_KEY'] },
  xai: { url: 'https://api.x.ai', keys: ['XAI_API_KEY'] },
};

/**
 * OpenCode's provider login and endpoint. Without a network it starts, retries and ends after a
 * minute or two; with a provider it has no key for, it fails its first call. Both are read first,
 * with no call, from the model its config names (OPENCODE_CONFIG_CONTENT, OPENCODE_CONFIG, or the
 * user's ~/.config/opencode/opencode.json — never a project's, which the agent could write): that
 * provider's `options.baseURL` (else its known API, else OpenCode's own for the free default) is
 * probed, and its key looked for in the config, its variable, or `opencode auth login`'s auth.json.
 */
export function opencodePreflight(agent: AgentSetting): AgentPreflight {
  let config: OpencodeConfig | undefined;
  const read = () => (config ??= readOpencodeConfig(agent.env));
  return {
    client: 'OpenCode',
    login: () => opencodeLogin(read(), agent.env),
    endpoint: () => opencodeEndpoint(read()),
    loginFix:
      "run `opencode auth login` for the model's provider (or set that provider's key variable), or choose " +
      'another model (agent.args --model), then run again',
    networkFix: (url) =>
      `OpenCode would retry for minutes without its provider. Check the network (behind a proxy set HTTPS_PROXY), ` +
      `test with \`curl -sI ${url.origin}\`, or pass --skip-preflight when a gateway of your own answers for it`,
  };
}

/** The name a config's base URL is read under (endpointFrom reads variables). */
const VARIABLE = 'baseURL';

export function opencodeEndpoint(config: OpencodeConfig): ServiceEndpoint {
  const { provider } = opencodeModel(config);
  const baseURL = config.providers[provider]?.baseURL;
  if (baseURL !== undefined) {
    const read = endpointFrom({ [VARIABLE]: baseURL }, VARIABLE, baseURL);
    if (!('invalid' in read)) return read;
    return { invalid: `provider.${provider}.options.baseURL (${baseURL}) in ${config.source} is not an http(s) URL` };
  }
  const known = PROVIDERS[provider];
  if (known) return { url: new URL(known.url) };
  return { skipped: `provider ${provider} names no baseURL ralph can probe` };
}

export async function opencodeLogin(config: OpencodeConfig, env: NodeJS.ProcessEnv): Promise<LoginReading> {
  const { provider, named } = opencodeModel(config);
  const where = named ? `its model's provider ${provider}` : 'its free default model';
  if (config.providers[provider]?.apiKey) return { state: 'ok', detail: `${where}: a key in ${config.source}` };
  const variable = PROVIDERS[provider]?.keys.find((name) => (env[name] ?? '').trim() !== '');
  if (variable) return { state: 'ok', detail: `${where}: ${variable} is set` };
  const data = env.XDG_DATA_HOME?.trim() || join(env.HOME ?? homedir(), '.local', 'share');
  const auth = join(data, 'opencode', 'auth.json');
  // The client's state is the agent's to write: a FIFO there is no login, and no hang.
  const stored = (await peekClientFile(auth)) ?? '';
  if (stored.includes(`"${provider}"`)) return { state: 'ok', detail: `${where}: a login in ${auth}` };
  if (provider === 'opencode') return { state: 'ok', detail: `${where} needs no key` };
  if (PROVIDERS[provider]) return { state: 'missing', detail: `${where} has no key (config, variable or ${auth})` };
  return { state: 'unknown', detail: `${where}: no key found, and ralph does not know that provider's variable` };
}
