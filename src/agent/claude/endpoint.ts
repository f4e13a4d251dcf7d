import { isClaudeBoolean } from './sandbox-rule.js';

/** Where Claude Code sends its calls, as its environment decides: a URL to probe, or why there is none. */
export type ClaudeEndpoint = { url: URL } | { skipped: string } | { invalid: string };

/** The API endpoint the client will use: ANTHROPIC_BASE_URL when set, else Anthropic's; a cloud's is not probed. */
export function claudeEndpoint(env: NodeJS.ProcessEnv): ClaudeEndpoint {
  const cloud = cloudProvider(env);
  if (cloud)
    return {
      skipped: `${cloud} set-up (${cloud === 'Bedrock' ? 'CLAUDE_CODE_USE_BEDROCK' : 'CLAUDE_CODE_USE_VERTEX'}): its endpoint is not probed`,
    };
  const base = env.ANTHROPIC_BASE_URL?.trim();
  if (!base) return { url: new URL('https://api.anthropic.com') };
  try {
    const url = new URL(base);
    if (url.protocol === 'https:' || url.protocol === 'http:') return { url };
    return { invalid: `ANTHROPIC_BASE_URL=${base} is not an http(s) URL` };
  } catch {
    return { invalid: `ANTHROPIC_BASE_URL=${base} is not a URL` };
  }
}

/** The cloud provider Claude Code is set up to call through, if any: its login and endpoint are the cloud's. */
export function cloudProvider(env: NodeJS.ProcessEnv): 'Bedrock' | 'Vertex' | undefined {
  if (isClaudeBoolean(env.CLAUDE_CODE_USE_BEDROCK)) return 'Bedrock';
  if (isClaudeBoolean(env.CLAUDE_CODE_USE_VERTEX)) return 'Vertex';
  return undefined;
}
