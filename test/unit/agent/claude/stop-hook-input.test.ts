import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { parseHookInput, readHookStdin } from '../../../../src/agent/claude/stop-hook-input.js';

const CLAUDE_INPUT =
  '{"session_id":"abc","transcript_path":"/home/u/.claude/projects/x/abc.jsonl","cwd":"/work/app","hook_event_name":"Stop","stop_hook_active":false}';

describe('parseHookInput', () => {
  it("reads the cwd of Claude Code's Stop hook JSON", () => {
    expect(parseHookInput(CLAUDE_INPUT)).toEqual({ ok: true, input: { cwd: '/work/app' } });
    expect(parseHookInput('{"stop_hook_active":true,"cwd":""}')).toEqual({ ok: true, input: { cwd: undefined } });
  });

  it.each([
    ['', /^no hook input on stdin/],
    ['  \n', /^no hook input on stdin/],
    ['not json', /^stdin is not JSON \(/],
    ['[1]', /^stdin is not a JSON object$/],
  ])('rejects %j', (text, problem) => {
    const parsed = parseHookInput(text);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.problem).toMatch(problem);
  });
});

describe('readHookStdin', () => {
  it('reads everything until the end of input', async () => {
    const stdin = new PassThrough();
    const reading = readHookStdin(stdin, 5_000);
    stdin.write(CLAUDE_INPUT.slice(0, 10));
    stdin.end(CLAUDE_INPUT.slice(10));
    expect(await reading).toEqual({ text: CLAUDE_INPUT, problem: undefined });
  });

  it('gives up on input that never ends', async () => {
    const stdin = new PassThrough();
    stdin.write('{"cwd":');
    expect(await readHookStdin(stdin, 20)).toEqual({ text: '{"cwd":', problem: 'stdin did not end within 0.02 s' });
  });

  it('treats a terminal as no input, without waiting', async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true });
    expect((await readHookStdin(stdin, 60_000)).problem).toMatch(/terminal/);
  });
});
