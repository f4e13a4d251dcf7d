import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codexEventReader } from '../../../../src/agent/codex/read-events.js';
import { AGENT_KINDS, dialectOf, type AgentKind } from '../../../../src/agent/dialects.js';
import type { EventReader } from '../../../../src/agent/event-reader.js';
import { geminiEventReader } from '../../../../src/agent/gemini/read-events.js';
import { opencodeEventReader } from '../../../../src/agent/opencode/read-events.js';
import type { StreamEvent } from '../../../../src/agent/output/stream-events.js';

const FIXTURES = join(import.meta.dirname, '../../../fixtures/agents');

/** Every event a reader makes of a fixture's lines, the end of the stream included. */
function readFixture(reader: EventReader, file: string): StreamEvent[] {
  const lines = readFileSync(join(FIXTURES, file), 'utf8').split('\n').filter(Boolean);
  return [...lines.flatMap((line) => reader.read(JSON.parse(line))), ...reader.end()];
}

const texts = (events: StreamEvent[]) => events.flatMap((event) => (event.type === 'assistant' ? event.texts : []));
const toolNames = (events: StreamEvent[]) =>
  events.flatMap((event) => (event.type === 'assistant' ? event.toolUses.map((use) => use.name) : []));
const toolErrors = (events: StreamEvent[]) =>
  events.flatMap((event) => (event.type === 'tool_results' ? event.results.map((result) => result.isError) : []));
const results = (events: StreamEvent[]) => events.flatMap((event) => (event.type === 'result' ? [event.result] : []));
const errors = (events: StreamEvent[]) =>
  events.flatMap((event) => (event.type === 'assistant' && event.error !== undefined ? [event.error] : []));

describe('the Codex reader (codex exec --json)', () => {
  it('reads a turn: the message, each finished tool call once with its outcome, tokens and no cost', () => {
    const events = readFixture(codexEventReader(), 'codex/turn.jsonl');
    expect(texts(events)).toEqual(['Story US-001 is done and committed.\n<promise>COMPLETE</promise>']);
    expect(toolNames(events)).toEqual(['command', 'command', 'file_change']);
    expect(toolErrors(events)).toEqual([false, true, false]);
    expect(results(events)).toEqual([
      {
        isError: false,
        subtype: 'success',
        text: 'Story US-001 is done and committed.\n<promise>COMPLETE</promise>',
        inputTokens: 24763,
        outputTokens: 122,
      },
    ]);
  });

  it('hears the reconnect notices of a client without network as retries, never as a failure or an ending', () => {
    const events = readFixture(codexEventReader(), 'codex/no-network.jsonl');
    const retries = events.filter((event) => event.type === 'api_retry');
    expect(retries).toHaveLength(6);
    expect(retries[0]).toMatchObject({ type: 'api_retry', attempt: 2, maxRetries: 5 });
    expect(retries.at(-1)).toEqual({
      type: 'api_retry',
      message: 'Reconnecting... waiting for network (Connection failed: error sending request)',
    });
    expect(results(events)).toEqual([]);
    expect(errors(events)).toEqual([]);
  });

  it('reads a usage limit as the client failing, with its words, and the failed turn as an error result', () => {
    const events = readFixture(codexEventReader(), 'codex/usage-limit.jsonl');
    expect(errors(events)).toEqual([
      expect.stringMatching(/^You’ve hit your usage limit\. .* try again at 8:54 PM\.$/),
    ]);
    expect(results(events)).toEqual([
      { isError: true, subtype: 'error', text: expect.stringContaining('usage limit') as string },
    ]);
  });
});

describe('the Gemini CLI reader (--output-format stream-json)', () => {
  it('joins the assistant deltas so a promise tag cut between two chunks is read whole', () => {
    const events = readFixture(geminiEventReader(), 'gemini/turn.jsonl');
    expect(texts(events)).toEqual(['Reading the task list.', 'All stories pass. <promise>COMPLETE</promise>']);
    expect(toolNames(events)).toEqual(['read_file', 'run_shell_command']);
    expect(toolErrors(events)).toEqual([false, true]);
    expect(results(events)).toEqual([
      {
        isError: false,
        subtype: 'success',
        text: 'All stories pass. <promise>COMPLETE</promise>',
        inputTokens: 14950,
        outputTokens: 263,
      },
    ]);
  });

  it('never reads the user prompt it echoes as the assistant speaking', () => {
    const reader = geminiEventReader();
    const events = [
      ...reader.read({ type: 'message', role: 'user', content: '<promise>COMPLETE</promise>' }),
      ...reader.end(),
    ];
    expect(texts(events)).toEqual([]);
  });

  it('gives a failed result the error message, and the words still held when the stream ends', () => {
    expect(results(readFixture(geminiEventReader(), 'gemini/error-result.jsonl'))).toEqual([
      {
        isError: true,
        subtype: 'error',
        text: 'exception TypeError: fetch failed sending request',
        inputTokens: 0,
        outputTokens: 0,
      },
    ]);
    const cut = geminiEventReader();
    cut.read({ type: 'message', role: 'assistant', content: 'half a', delta: true });
    expect(texts(cut.end())).toEqual(['half a']);
  });

  it('counts only an error of severity error as the client failing; a warning is shown, not a failure', () => {
    const reader = geminiEventReader();
    expect(errors(reader.read({ type: 'error', severity: 'warning', message: 'Loop detected' }))).toEqual([]);
    expect(errors(reader.read({ type: 'error', severity: 'error', message: 'Quota exceeded' }))).toEqual([
      'Quota exceeded',
    ]);
  });
});

describe('the OpenCode reader (run --format json)', () => {
  it('sums the steps into one result with cost and tokens, the last text its text', () => {
    const events = readFixture(opencodeEventReader(), 'opencode/turn.jsonl');
    expect(texts(events)).toEqual(['Done.\n<promise>COMPLETE</promise>']);
    expect(toolNames(events)).toEqual(['bash']);
    expect(toolErrors(events)).toEqual([false]);
    const [result] = results(events);
    expect(result).toMatchObject({ isError: false, text: 'Done.\n<promise>COMPLETE</promise>', numTurns: 2 });
    expect(result?.costUsd).toBeCloseTo(0.0168, 6);
    expect(result).toMatchObject({ inputTokens: 18200, outputTokens: 150 });
  });

  it('reads the real no-network line as the client failing, with its message, and ends in an error result', () => {
    const events = readFixture(opencodeEventReader(), 'opencode/no-network.jsonl');
    expect(errors(events)).toEqual([
      'Cannot connect to API: Unable to connect. Is the computer able to access the url?',
    ]);
    expect(results(events)).toMatchObject([
      { isError: true, text: expect.stringContaining('Cannot connect') as string },
    ]);
  });

  it('makes no result of a stream that said nothing', () => {
    expect(opencodeEventReader().end()).toEqual([]);
  });
});

const READERS = AGENT_KINDS.map((kind) => [kind, () => dialectOf(kind).reader()] as const);

describe('every reader, fed what is not an event', () => {
  it.each(READERS)('%s keeps an unknown line by name, marked unknown, and never throws', (_kind, make) => {
    const reader = make();
    for (const json of [null, 42, 'text', [], {}, { type: 'future.event', item: 7 }, { type: 'item.completed' }])
      expect(() => reader.read(json)).not.toThrow();
    expect(reader.read({ type: 'future.event' })).toEqual([{ type: 'other', name: 'future.event', unknown: true }]);
    expect(reader.read(42)).toEqual([{ type: 'other', name: 'number', unknown: true }]);
  });
});

describe("every line of the clients' real output is one its reader knows", () => {
  const fixtures = readdirSync(FIXTURES, { recursive: true, encoding: 'utf8' }).filter((file) =>
    file.endsWith('.jsonl'),
  );
  it.each(fixtures)('%s', (file) => {
    const kind = file.split('/')[0] as AgentKind;
    const unknown = readFixture(dialectOf(kind).reader(), file).filter(
      (event) => event.type === 'other' && event.unknown,
    );
    expect(unknown).toEqual([]);
  });
});
