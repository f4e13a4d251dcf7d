import { parseJson } from '../../files/json-text.js';

import type { HookInputParse } from '../stop-hook.js';

/** Claude Code's input is a few hundred bytes; anything past this is not it. */
const MAX_INPUT_BYTES = 1024 * 1024;

/**
 * Reads stdin to its end, but never waits longer than `timeoutMs` nor keeps more than 1 MiB:
 * a hook that hangs would hang the agent. A terminal counts as no input.
 */
export function readHookStdin(
  stdin: NodeJS.ReadableStream & { isTTY?: boolean },
  timeoutMs: number,
): Promise<{ text: string; problem?: string }> {
  if (stdin.isTTY) return Promise.resolve({ text: '', problem: 'stdin is a terminal, not Claude Code' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (problem?: string) => {
      clearTimeout(timer);
      stdin.removeListener('data', onData);
      stdin.pause();
      resolve({ text: Buffer.concat(chunks).toString('utf8'), problem });
    };
    const onData = (chunk: Buffer | string) => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      chunks.push(buffer);
      size += buffer.length;
      if (size > MAX_INPUT_BYTES) finish('stdin holds more than 1 MiB');
    };
    const timer = setTimeout(() => finish(`stdin did not end within ${timeoutMs / 1000} s`), timeoutMs);
    stdin.on('data', onData);
    stdin.once('end', () => finish());
    stdin.once('error', (error: Error) => finish(`cannot read stdin: ${error.message}`));
  });
}

/**
 * Parses the hook's stdin: a JSON object, of which ralph uses `cwd`. `stop_hook_active` is not
 * needed: ralph counts its own blocks per iteration.
 */
export function parseHookInput(text: string): HookInputParse {
  if (text.trim() === '')
    return { ok: false, problem: "no hook input on stdin (expected Claude Code's Stop hook JSON)" };
  const parsed = parseJson(text);
  if (!parsed.ok) return { ok: false, problem: `stdin is not JSON (${parsed.error})` };
  const json = parsed.value;
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return { ok: false, problem: 'stdin is not a JSON object' };
  const { cwd } = json as Record<string, unknown>;
  return { ok: true, input: { cwd: typeof cwd === 'string' && cwd !== '' ? cwd : undefined } };
}
