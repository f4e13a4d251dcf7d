import { describe, expect, it } from 'vitest';
import { BoundedLines } from '../../../src/text/bounded-lines.js';
import {
  LoopMessage,
  MAX_MESSAGE_BYTES,
  messageLine,
  parseMessage,
  SupervisorMessage,
} from '../../../src/parallel/channel-messages.js';

function split(max: number, ...chunks: (string | Buffer)[]) {
  const lines: [string, boolean][] = [];
  const splitter = new BoundedLines(max, (line, cut) => lines.push([line, cut]));
  for (const chunk of chunks) splitter.push(chunk);
  splitter.end();
  return lines;
}

describe('BoundedLines', () => {
  it('hands on whole lines across chunks, a CRLF as one end, the unfinished last line at the end', () => {
    expect(split(100, 'one\ntw', 'o\r\nthr', 'ee')).toEqual([
      ['one', false],
      ['two', false],
      ['three', false],
    ]);
  });

  it('never holds more than its bound: of a longer line its start goes on marked cut, the rest is dropped', () => {
    expect(split(4, 'abcdefghij\nk\n')).toEqual([
      ['abcd', true],
      ['k', false],
    ]);
  });

  it('never passes the tail of a cut line on as a line, however the chunks fall', () => {
    // The tail is a valid message on its own: it must not be read as one.
    const tail = '{"t":"hold"}';
    expect(split(8, 'x'.repeat(6), `yyy${tail}`, '\nnext', '\n')).toEqual([
      ['xxxxxxyy', true],
      ['next', false],
    ]);
    expect(split(8, `${'z'.repeat(9)}${tail}`)).toEqual([['zzzzzzzz', true]]);
    expect(split(8, 'z'.repeat(9), tail, '\n', 'after')).toEqual([
      ['zzzzzzzz', true],
      ['after', false],
    ]);
  });

  it('a line of exactly the bound is whole, not cut', () => {
    expect(split(4, 'abcd\nef\n')).toEqual([
      ['abcd', false],
      ['ef', false],
    ]);
  });

  it('never splits a character, even one split across chunks', () => {
    const euro = Buffer.from('€€\n€\n');
    const lines = split(4, euro.subarray(0, 2), euro.subarray(2));
    expect(lines).toEqual([
      ['€', true],
      ['€', false],
    ]);
  });
});

describe('the channel messages', () => {
  const started = { t: 'started', iteration: 3, mode: 'implement', stories: { complete: 1, total: 4 } };

  it('reads a message of the schema and round-trips it', () => {
    expect(parseMessage(LoopMessage, JSON.stringify(started))).toEqual(started);
    const hold = { t: 'hold', until: 1_750_000_000_000, message: 'usage limit' } as const;
    expect(parseMessage(SupervisorMessage, messageLine(hold)!.trimEnd())).toEqual(hold);
  });

  it('drops what is not one: bad JSON, an unknown kind, an extra key, a wrong type, an oversized line', () => {
    expect(parseMessage(LoopMessage, '{"t":"started"')).toBeUndefined();
    expect(parseMessage(LoopMessage, JSON.stringify({ ...started, t: 'ended' }))).toBeUndefined();
    expect(parseMessage(LoopMessage, JSON.stringify({ ...started, list: 'other-loop' }))).toBeUndefined();
    expect(parseMessage(LoopMessage, JSON.stringify({ ...started, iteration: -1 }))).toBeUndefined();
    const long = { t: 'waiting', until: 1, message: 'x'.repeat(MAX_MESSAGE_BYTES) };
    expect(parseMessage(LoopMessage, JSON.stringify(long))).toBeUndefined();
    expect(messageLine(long as LoopMessage)).toBeUndefined();
  });
});
