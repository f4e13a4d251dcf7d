import { execa } from 'execa';

/**
 * The Claude Code version the generated workflow pins when `init` finds none installed here: a
 * release on npm (`npm view @anthropic-ai/claude-code@2.1.332 version`) whose `engines` asks for
 * Node 22, which the workflow sets up.
 */
export const DEFAULT_CLAUDE_CODE_VERSION = '2.1.332';

/** `claude --version` prints `2.1.332 (Claude Code)`; a stand-in printing anything else is not the client. */
const VERSION_LINE = /^(\d+\.\d+\.\d+(?:-[\w.]+)?) \(Claude Code\)\s*$/;

/**
 * The version of the Claude Code installed here, so CI runs the agent the user tried: undefined
 * when `claude` is missing, slow, fails, or is not Claude Code.
 */
export async function installedClaudeCodeVersion(executable: string | undefined): Promise<string | undefined> {
  if (executable === undefined) return undefined;
  const result = await execa(executable, ['--version'], {
    reject: false,
    timeout: 5000,
    stdin: 'ignore',
    maxBuffer: 4096,
  });
  return result.exitCode === 0 ? VERSION_LINE.exec(String(result.stdout).trim())?.[1] : undefined;
}
