/**
 * Whether the npm registry the generated workflow installs from holds a version of a package: the
 * one question `ralph init --ci github` asks before it writes `npm install -g <name>@<version>`.
 * Asked of the public registry (the runner's npm has no other), bounded in time, and never an error:
 * an answer other than "there" or "not there" is "could not ask", which init treats as not there.
 */

/** The registry a GitHub runner's npm installs from. */
export const NPM_REGISTRY = 'https://registry.npmjs.org';

/** How long init waits for the registry: a dead network costs this, once. */
export const REGISTRY_TIMEOUT_MS = 10_000;

/**
 * The tests' injected answer (`published`, `missing` or `unreachable`), so that no test depends on
 * the registry or the network: the asking itself is tested against a server of the test's own.
 */
export const REGISTRY_TEST_KNOB = 'RALPH_TEST_REGISTRY_ANSWER';

export type RegistryAnswer =
  | { kind: 'published' }
  /** The registry answered that it has no such version (or package). */
  | { kind: 'missing'; why: string }
  /** No answer, or one that says neither: the network, a proxy, a timeout, a server error. */
  | { kind: 'unreachable'; why: string };

export interface AskOptions {
  registry?: string;
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

/** Asks the registry for `<name>@<version>`'s manifest; resolves within `timeoutMs`, never rejects. */
export async function askRegistry(name: string, version: string, options: AskOptions = {}): Promise<RegistryAnswer> {
  const injected = injectedAnswer((options.env ?? process.env)[REGISTRY_TEST_KNOB]);
  if (injected) return injected;
  const registry = (options.registry ?? NPM_REGISTRY).replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? REGISTRY_TIMEOUT_MS;
  // A scoped name keeps its @ and escapes its slash, as npm asks for it.
  const url = `${registry}/${name.replace('/', '%2F')}/${encodeURIComponent(version)}`;
  try {
    const response = await fetch(url, {
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/json' },
    });
    // Only the status is read: the body is let go unread.
    await response.body?.cancel().catch(() => undefined);
    if (response.ok) return { kind: 'published' };
    if (response.status === 404) return { kind: 'missing', why: `${registry} answered 404` };
    return { kind: 'unreachable', why: `${registry} answered ${response.status}` };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    return {
      kind: 'unreachable',
      why: timedOut ? `no answer from ${registry} in ${seconds(timeoutMs)}` : `${registry}: ${causeOf(error)}`,
    };
  }
}

function injectedAnswer(value: string | undefined): RegistryAnswer | undefined {
  switch (value) {
    case 'published':
      return { kind: 'published' };
    case 'missing':
      return { kind: 'missing', why: `${NPM_REGISTRY} answered 404` };
    case 'unreachable':
      return { kind: 'unreachable', why: `${NPM_REGISTRY}: the network is unreachable` };
    default:
      return undefined;
  }
}

/** fetch's "fetch failed" hides the reason in its cause (ENOTFOUND, ECONNREFUSED…): the one line that says it. */
function causeOf(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: unknown; message?: unknown } | undefined) : undefined;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  const message = error instanceof Error ? error.message : String(error);
  return (code ?? (typeof cause?.message === 'string' ? cause.message : message)).split('\n')[0] ?? 'failed';
}

function seconds(ms: number): string {
  return ms < 1000 ? `${ms}ms` : `${Math.round(ms / 1000)}s`;
}
