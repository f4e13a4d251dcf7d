import type { ServiceEndpoint } from './preflight-types.js';

/** The endpoint a client's base-URL variable names, else its own default; a value that is no http(s) URL is said. */
export function endpointFrom(env: NodeJS.ProcessEnv, variable: string, fallback: string): ServiceEndpoint {
  const base = env[variable]?.trim();
  if (!base) return { url: new URL(fallback) };
  try {
    const url = new URL(base);
    if (url.protocol === 'https:' || url.protocol === 'http:') return { url };
    return { invalid: `${variable}=${base} is not an http(s) URL` };
  } catch {
    return { invalid: `${variable}=${base} is not a URL` };
  }
}

/** The host (and port) of a base-URL variable's value, when it is a URL; undefined when unset or not one. */
export function hostOf(value: string | undefined): string | undefined {
  if (!value?.trim()) return undefined;
  try {
    return new URL(value.trim()).host || undefined;
  } catch {
    return undefined;
  }
}
