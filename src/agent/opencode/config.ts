import { homedir } from 'node:os';
import { join } from 'node:path';
import { readSmallRegularFile } from '../../files/read-cap.js';

/** What ralph reads of OpenCode's config: its model, and each provider's base URL and key. */
export interface OpencodeConfig {
  /** Where it was read from, for the checks' words. */
  source: string;
  model?: string;
  providers: Record<string, { baseURL?: string; apiKey?: boolean }>;
}

/** A config larger than this is not read (the checks then know no provider). */
const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * The config the client itself would read first, never a project's: none found is an empty one.
 * Read at once (a small file of the user's): the endpoint check asks for it synchronously.
 */
export function readOpencodeConfig(env: NodeJS.ProcessEnv): OpencodeConfig {
  const inline = env.OPENCODE_CONFIG_CONTENT?.trim();
  if (inline) return fromText(inline, 'OPENCODE_CONFIG_CONTENT');
  const configHome = env.XDG_CONFIG_HOME?.trim() || join(env.HOME ?? homedir(), '.config');
  const path = env.OPENCODE_CONFIG?.trim() || join(configHome, 'opencode', 'opencode.json');
  const text = readSmall(path);
  return text === undefined ? { source: path, providers: {} } : fromText(text, path);
}

/** A FIFO the agent put there (the client's state is its to write) is no config, and no hang. */
function readSmall(path: string): string | undefined {
  return readSmallRegularFile(path, MAX_CONFIG_BYTES)?.text;
}

/** The provider and model the config names (`provider/model`); OpenCode's own free default without one. */
export function opencodeModel(config: OpencodeConfig): { provider: string; named: boolean } {
  const provider = config.model?.split('/')[0]?.trim();
  return provider ? { provider, named: true } : { provider: 'opencode', named: false };
}

function fromText(text: string, source: string): OpencodeConfig {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    // JSONC (comments) or a broken file: the client says what is wrong with it; ralph reads nothing.
    return { source, providers: {} };
  }
  const record = isRecord(json) ? json : {};
  const providers: OpencodeConfig['providers'] = {};
  for (const [name, value] of Object.entries(isRecord(record.provider) ? record.provider : {})) {
    const options = isRecord(value) && isRecord(value.options) ? value.options : {};
    const baseURL = typeof options.baseURL === 'string' && options.baseURL.trim() ? options.baseURL.trim() : undefined;
    const apiKey = typeof options.apiKey === 'string' && options.apiKey.trim() !== '';
    providers[name] = { ...(baseURL ? { baseURL } : {}), ...(apiKey ? { apiKey } : {}) };
  }
  return { source, ...(typeof record.model === 'string' ? { model: record.model } : {}), providers };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
