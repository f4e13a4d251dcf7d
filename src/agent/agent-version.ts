import type { AskAgent } from './ask-agent.js';

/** How long `<agent> --version` may take: a client of 250 MB starts slowly from a cold disk cache. */
const VERSION_TIMEOUT_MS = 30_000;

/**
 * The first line of `<agent> --version` (Claude Code: `2.1.197 (Claude Code)`), cleaned of control
 * characters and cut to 120 characters — the agent is not trusted with ralph's terminal. Undefined
 * when it fails, says nothing, or takes too long.
 */
export async function readAgentVersion(ask: AskAgent): Promise<string | undefined> {
  const result = await ask(['--version'], { timeoutMs: VERSION_TIMEOUT_MS, maxBytes: 64 * 1024 });
  if (result.exitCode !== 0 || result.stopped !== undefined) return undefined;
  const line = result.stdout
    .split('\n')
    .map((text) => text.replace(/[\u0000-\u001f\u007f-\u009f]/g, '').trim())
    .find((text) => text !== '');
  return line === undefined ? undefined : line.slice(0, 120);
}
