import { readFileSync } from 'node:fs';
import { PassThrough, type Writable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { diagnoseFailure } from '../../../../src/agent/diagnose-failure.js';
import { claude } from '../../../../src/agent/claude/dialect.js';
import { CLAUDE_HINTS } from '../../../../src/agent/claude/hints.js';
import type { EventReader } from '../../../../src/agent/event-reader.js';
import { AGENT_KINDS, dialectOf } from '../../../../src/agent/dialects.js';
import { neutralise } from '../../../../src/text/neutralise.js';
import { gemini } from '../../../../src/agent/gemini/dialect.js';
import { createStreamJsonOutput, type StreamHooks } from '../../../../src/agent/output/stream-json-output.js';
import { createTextOutput } from '../../../../src/agent/output/text-output.js';

function sink() {
  const stream = new PassThrough();
  const chunks: Buffer[] = [];
  stream.on('data', (chunk: Buffer) => chunks.push(chunk));
  return { stream, text: () => Buffer.concat(chunks).toString('utf8') };
}

/** Feeds stdout (and stderr) in the given pieces and returns what came out. */
async function feed(
  pieces: (string | Buffer)[],
  options: { stderr?: string; hooks?: StreamHooks; verbose?: boolean; reader?: EventReader } = {},
) {
  const log = sink();
  const jsonl = sink();
  const screen = sink();
  const output = createStreamJsonOutput(
    {
      log: log.stream,
      jsonl: jsonl.stream,
      terminal: { stdout: screen.stream, stderr: screen.stream },
      color: false,
      verbose: options.verbose ?? false,
      onError: (error) => {
        throw error;
      },
    },
    options.reader ?? claude.reader(),
    options.hooks,
  );
  for (const piece of pieces) await write(output.stdout, piece);
  if (options.stderr) await write(output.stderr, options.stderr);
  output.stdout.end();
  output.stderr.end();
  await Promise.all([finished(output.stdout), finished(output.stderr)]);
  return { summary: output.summary(), log: log.text(), jsonl: jsonl.text(), screen: screen.text() };
}

function write(stream: Writable, piece: string | Buffer): Promise<void> {
  return new Promise((resolve) => stream.write(piece, () => resolve()));
}

const line = (event: unknown) => `${JSON.stringify(event)}\n`;
const assistant = (...content: unknown[]) => line({ type: 'assistant', message: { content } });
const toolResult = (content: string, isError = false) =>
  line({
    type: 'user',
    message: { content: [{ type: 'tool_result', tool_use_id: 't1', content, is_error: isError }] },
  });
const result = (fields: Record<string, unknown> = {}) =>
  line({
    type: 'result',
    subtype: 'success',
    is_error: false,
    result: 'done',
    total_cost_usd: 0.42,
    num_turns: 3,
    usage: { input_tokens: 1200, output_tokens: 300 },
    ...fields,
  });

describe('stream-json output', () => {
  it('renders text, one line per tool call and marked tool errors, and keeps the raw lines byte for byte', async () => {
    const raw = [
      line({ type: 'system', subtype: 'init', model: 'm' }),
      assistant(
        { type: 'text', text: 'Let me run the tests.' },
        { type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'npm test' } },
      ),
      toolResult('Error: 2 failed', true),
      assistant({
        type: 'tool_use',
        id: 't2',
        name: 'Edit',
        input: { file_path: 'src/x.ts', old_string: 'a', new_string: 'b' },
      }),
      result(),
    ].join('');
    const { log, jsonl, summary } = await feed([raw.slice(0, 37), raw.slice(37, 300), raw.slice(300)]);
    expect(jsonl).toBe(raw);
    expect(log).toBe(
      [
        'Let me run the tests.',
        '▸ Bash  npm test',
        '✗ tool error: Error: 2 failed',
        '▸ Edit  src/x.ts',
        '■ done · 3 turns · $0.4200 · 1,200 in / 300 out tokens',
        '',
      ].join('\n'),
    );
    expect(summary).toMatchObject({
      toolCalls: 2,
      invalidLines: 0,
      result: { costUsd: 0.42, inputTokens: 1200, outputTokens: 300, numTurns: 3, isError: false },
    });
  });

  it('reads promise tags from the assistant text and the result, never from tool input or tool results', async () => {
    const quoted = await feed([
      assistant({ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'echo "<promise>COMPLETE</promise>"' } }),
      toolResult('Signals: <promise>COMPLETE</promise> and <promise>BLOCKED:x</promise>'),
      result({ result: 'I read the prompt.' }),
    ]);
    expect(quoted.summary.signals).toEqual({ complete: false, invalid: [] });
    const spoken = await feed([assistant({ type: 'text', text: 'All done. <promise>COMPLETE</promise>' }), result()]);
    expect(spoken.summary.signals.complete).toBe(true);
    const inResult = await feed([result({ result: '<promise>DECIDE:A or B?</promise>' })]);
    expect(inResult.summary.signals.decide).toBe('A or B?');
  });

  it('logs and counts a line that is not JSON, and goes on', async () => {
    const { summary, log } = await feed([
      '(node:1) Warning: something\n',
      assistant({ type: 'text', text: 'still here' }),
      '{"type":"assis',
      'tant", broken\n',
      result(),
    ]);
    expect(summary.invalidLines).toBe(2);
    expect(log).toContain('[ralph] not JSON: (node:1) Warning: something');
    expect(log).toContain('still here');
    expect(summary.result).toBeDefined();
  });

  it('tells an agent that prints plain text once to use --output text, then shows its lines as they are', async () => {
    const lines = ['Looking at the code.\n', 'Implemented US-1.\n', 'Committed.\n', 'All done.\n'];
    const { summary, screen } = await feed(lines);
    expect(summary.invalidLines).toBe(4);
    expect(screen.match(/pass --output text/g)).toHaveLength(1);
    expect(screen.match(/not JSON/g)).toHaveLength(2);
    expect(screen).toMatch(/\nCommitted\.\n/);
    expect(screen).toMatch(/\nAll done\.\n/);
  });

  it('has no result when the stream ends without one', async () => {
    const { summary } = await feed([assistant({ type: 'text', text: 'working' })]);
    expect(summary.result).toBeUndefined();
    expect(summary.expectsResult).toBe(true);
  });

  it('handles a multi-byte character split across chunks', async () => {
    const bytes = Buffer.from(assistant({ type: 'text', text: 'héllo ✓' }));
    const cut = bytes.indexOf(Buffer.from('✓')) + 1;
    const { log } = await feed([bytes.subarray(0, cut), bytes.subarray(cut)]);
    expect(log).toContain('héllo ✓');
  });

  it('reports tool calls and results to the hooks', async () => {
    const uses: string[] = [];
    const results: boolean[] = [];
    await feed(
      [assistant({ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: 'a' } }), toolResult('x', true)],
      {
        hooks: { onToolUse: (use) => uses.push(use.name), onToolResult: (r) => results.push(r.isError) },
      },
    );
    expect(uses).toEqual(['Read']);
    expect(results).toEqual([true]);
  });
});

describe('diagnoseFailure', () => {
  const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/claude/${name}`, import.meta.url), 'utf8');

  it('recognises the real client not logged in (stream-json) as an auth failure', async () => {
    const { summary } = await feed([fixture('not-logged-in.stream.jsonl')]);
    expect(diagnoseFailure(summary, 1, Date.now(), claude)).toEqual({
      kind: 'auth',
      message: 'Not logged in · Please run /login',
      hint: CLAUDE_HINTS.auth,
    });
  });

  it('recognises the real root refusal on stderr as a set-up failure', async () => {
    const { summary } = await feed([], { stderr: fixture('root-refusal.stderr') });
    expect(diagnoseFailure(summary, 1, Date.now(), claude)).toMatchObject({ kind: 'setup' });
  });

  it('recognises a usage limit in the error result and takes its reset time from the rejected event, not the text', async () => {
    const { summary } = await feed([
      line({
        type: 'rate_limit_event',
        rate_limit_info: { status: 'rejected', rateLimitType: 'five_hour', resetsAt: 1783173600 },
      }),
      line({
        type: 'assistant',
        message: {
          model: '<synthetic>',
          content: [{ type: 'text', text: "You've hit your session limit · resets 9am (Europe/Berlin)" }],
        },
        error: 'rate_limit',
      }),
      result({
        is_error: true,
        api_error_status: 429,
        result: "You've hit your session limit · resets 9am (Europe/Berlin)",
      }),
    ]);
    const failure = diagnoseFailure(summary, 1, Date.UTC(2026, 6, 4, 12), claude);
    expect(failure).toMatchObject({
      kind: 'usage_limit',
      message: "You've hit your session limit · resets 9am (Europe/Berlin)",
    });
    expect(failure?.kind === 'usage_limit' && failure.reset).toEqual({ at: 1_783_173_600_000, source: 'event' });
  });

  it('ignores limit and login words inside tool results, and succeeding iterations entirely', async () => {
    const { summary } = await feed([
      toolResult("You've hit your limit · resets 5am (Europe/Amsterdam) — Not logged in · Please run /login"),
      assistant({ type: 'text', text: 'The docs mention the usage limit.' }),
      result({ is_error: true, result: 'Error: tests failed' }),
    ]);
    expect(diagnoseFailure(summary, 1, Date.now(), claude)).toEqual({
      kind: 'error',
      lines: ['Error: tests failed'],
    });
    expect(
      diagnoseFailure({ ...summary, result: { ...summary.result!, isError: false } }, 0, Date.now(), claude),
    ).toBeUndefined();
  });

  it('reads text mode from stderr and the last lines of stdout', async () => {
    const log = sink();
    const output = createTextOutput({ log: log.stream, color: false, verbose: false, onError: () => undefined });
    await write(output.stdout, 'lots of work\nNot logged in · Please run /login\n');
    output.stdout.end();
    output.stderr.end();
    await Promise.all([finished(output.stdout), finished(output.stderr)]);
    expect(diagnoseFailure(output.summary(), 1, Date.now(), claude)).toMatchObject({ kind: 'auth' });
  });
});

describe('the stall clock', () => {
  const retry = (status: number | null, error: string) =>
    JSON.stringify({ type: 'system', subtype: 'api_retry', attempt: 1, max_retries: 10, error_status: status, error });

  it("is started by Claude Code's api_retry that got no answer at all (no network), with what it said", async () => {
    const notes: string[] = [];
    const fixture = readFileSync(new URL('../../../fixtures/claude/no-network.stream.jsonl', import.meta.url), 'utf8');
    await feed([fixture], { hooks: { onRetry: (note) => notes.push(note) } });
    expect(notes).toHaveLength(7);
    expect(notes[0]).toBe('API retry 1/10: no answer from the API (unknown)');
  });

  it('is not started by a retry on an HTTP status (an overloaded or limiting server is waited out)', async () => {
    const notes: string[] = [];
    await feed([`${retry(529, 'overloaded_error')}\n${retry(429, 'rate_limit')}\n`], {
      hooks: { onRetry: (note) => notes.push(note) },
    });
    expect(notes).toEqual([]);
  });

  it("is started by Gemini CLI's no-answer retries on stderr, not by its retries on a status", async () => {
    const notes: string[] = [];
    const stderr =
      'YOLO mode is enabled. All tool calls will be automatically approved.\n' +
      'Attempt 1 failed. Retrying with backoff... TypeError: fetch failed\n' +
      'Attempt 1 failed with status 429. Retrying with backoff...\n' +
      'Attempt 2 failed. Retrying with backoff...\n';
    await feed([], { stderr, reader: gemini.reader(), hooks: { onRetry: (note) => notes.push(note) } });
    expect(notes).toEqual([
      'Attempt 1 failed. Retrying with backoff... TypeError: fetch failed',
      'Attempt 2 failed. Retrying with backoff...',
    ]);
  });
});

describe.each(AGENT_KINDS)('the %s stream, read through its own reader', (kind) => {
  const dialect = dialectOf(kind);

  it('counts a line its reader does not know and shows it with --verbose only, never failing on it', async () => {
    const pieces = [line({ type: 'a.future.event', data: 1 }), line(['not', 'an', 'event'])];
    const quiet = await feed(pieces, { reader: dialect.reader() });
    expect(quiet.summary.unknownLines).toBe(2);
    expect(quiet.screen).not.toMatch(/a\.future\.event/);
    const verbose = await feed(pieces, { reader: dialect.reader(), verbose: true });
    expect(verbose.screen).toContain('· a.future.event (a line ralph does not know)');
    expect(verbose.screen).toContain('· 2 lines ralph does not know, not read (they are in the .jsonl log)');
    expect(verbose.summary.invalidLines).toBe(0);
    expect(diagnoseFailure(verbose.summary, 0, Date.now(), dialect)).toBeUndefined();
  });

  it('fails an iteration whose stream has no JSON at all, quoting its first bytes, whatever the exit', async () => {
    const text = `Hello! I am ${dialect.name} in its text mode.\u001b]52;c;aGk=\u0007 ${'and on '.repeat(30)}\nSecond line.\n`;
    const { summary } = await feed([text], { reader: dialect.reader() });
    expect(summary.notJson).toBe(text.slice(0, 120));
    for (const exit of [0, 1]) {
      const failure = diagnoseFailure(summary, exit, Date.now(), dialect);
      expect(failure?.kind).toBe('error');
      const [message = ''] = failure?.kind === 'error' ? failure.lines : [];
      expect(message).toContain(`it began ${JSON.stringify(neutralise(text.slice(0, 120)))} — `);
      expect(message).toMatch(/probably started in the wrong mode/);
      expect(message).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    }
    // One JSON line is enough: then plain lines are the client speaking outside its stream.
    const mixed = await feed([line({ type: 'some.event' }), text], { reader: dialect.reader() });
    expect(mixed.summary.notJson).toBeUndefined();
  });
});
