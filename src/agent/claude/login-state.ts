import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { LoginReading } from '../preflight-types.js';
import { cloudProvider } from './endpoint.js';

/** The variables Claude Code takes a key or token from, in the order it reads them. */
export const CLAUDE_KEY_VARIABLES = ['ANTHROPIC_API_KEY', 'ANTHROPIC_AUTH_TOKEN', 'CLAUDE_CODE_OAUTH_TOKEN'] as const;

/** What the login check reads: the environment, the home folder, the platform, and the client's own answer. */
export interface LoginFacts {
  env: NodeJS.ProcessEnv;
  home: string;
  platform: NodeJS.Platform;
  /**
   * `claude auth status` (2.1.x prints `{"loggedIn": false, …}`; it calls nothing paid), or undefined
   * when it could not be asked or did not answer in JSON.
   */
  authStatus?: () => Promise<string | undefined>;
}

/**
 * Whether Claude Code is logged in, read without a paid call: a key variable, its credential file
 * (`$CLAUDE_CONFIG_DIR/.credentials.json`, else `~/.claude/.credentials.json`), then its own
 * `auth status`. Where none can tell — a cloud provider's credentials, the macOS keychain — the
 * answer is 'unknown' and the run goes on.
 */
export async function claudeLoginState(facts: LoginFacts): Promise<LoginReading> {
  const { env } = facts;
  const cloud = cloudProvider(env);
  if (cloud) return { state: 'unknown', detail: `${cloud} set-up: its cloud credentials are not checked` };
  const variable = CLAUDE_KEY_VARIABLES.find((name) => (env[name] ?? '').trim() !== '');
  if (variable) return { state: 'ok', detail: `${variable} is set` };
  const configDir = env.CLAUDE_CONFIG_DIR?.trim() || join(facts.home, '.claude');
  const credentials = join(configDir, '.credentials.json');
  const file = await stat(credentials).catch(() => undefined);
  if (file?.isFile() && file.size > 0) return { state: 'ok', detail: `credentials in ${credentials}` };
  const said = parseAuthStatus(await facts.authStatus?.().catch(() => undefined));
  if (said === true) return { state: 'ok', detail: '`claude auth status` says logged in' };
  // Set but empty: what CI gives for a secret that was never added.
  const empty = CLAUDE_KEY_VARIABLES.filter((name) => env[name] !== undefined);
  const keys = empty.length > 0 ? `${empty.join(', ')} set but empty` : 'no key variable';
  if (said === false)
    return {
      state: 'missing',
      detail: `${keys}, no ${credentials}, and \`claude auth status\` says not logged in`,
    };
  // macOS keeps the login in the keychain, which ralph does not read.
  if (facts.platform === 'darwin')
    return { state: 'unknown', detail: 'no key variable; the login may be in the keychain' };
  return {
    state: 'missing',
    detail:
      empty.length > 0
        ? `${keys}, and no ${credentials}`
        : `no ${CLAUDE_KEY_VARIABLES.join(', ')} and no ${credentials}`,
  };
}

/** `loggedIn` from the JSON `claude auth status` prints; undefined when it said something else. */
function parseAuthStatus(text: string | undefined): boolean | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    const loggedIn = (parsed as { loggedIn?: unknown } | null)?.loggedIn;
    return typeof loggedIn === 'boolean' ? loggedIn : undefined;
  } catch {
    return undefined;
  }
}

/** The fix in CI, where nobody can log in at a prompt: the key comes from a secret. */
export const CLAUDE_CI_LOGIN_FIX =
  'add the repository secret ANTHROPIC_API_KEY (an empty variable is what a missing secret gives) and pass it to the step; ' +
  '--skip-preflight skips this check';

/** What to tell a user who is not logged in. */
export const CLAUDE_LOGIN_FIX =
  'log in to Claude Code: run `claude` once and follow the prompts (or `claude setup-token`), or set ANTHROPIC_API_KEY; ' +
  '--skip-preflight skips this check';
