import { describe, expect, it } from 'vitest';
import { Neutraliser } from '../../../src/text/neutralise.js';

/**
 * The reading `Neutraliser.push` had before it copied plain runs whole: a character at a time
 * (7226fd5). Kept here as the oracle the faster one must agree with, chunk splits included.
 */
class CharByChar {
  private held = '';
  constructor(private readonly color: boolean) {}

  push(text: string): string {
    const input = this.held + text;
    this.held = '';
    let out = '';
    for (let i = 0; i < input.length; i++) {
      const code = input.charCodeAt(i);
      if (code === 0x1b) {
        const length = csiLength(input, i);
        if (length === undefined) return ((this.held = input.slice(i)), out);
        const sequence = input.slice(i, i + length);
        if (length > 0 && /^\u001b\[[0-9;:]*m$/.test(sequence)) {
          if (this.color) out += sequence;
          i += length - 1;
        } else out += '␛';
      } else if (code === 0x0d) {
        if (i + 1 === input.length) return ((this.held = '\r'), out);
        out += input.charCodeAt(i + 1) === 0x0a ? '\r' : '␍';
      } else out += visible(code) ?? input[i];
    }
    return out;
  }

  end(): string {
    const rest = this.held;
    this.held = '';
    return [...rest].map((char) => visible(char.charCodeAt(0)) ?? char).join('');
  }
}

function csiLength(text: string, start: number): number | undefined {
  if (start + 1 === text.length) return undefined;
  if (text[start + 1] !== '[') return 0;
  for (let i = start + 2; i < text.length; i++) {
    if (i - start > 64) return 0;
    const code = text.charCodeAt(i);
    if (code >= 0x40 && code <= 0x7e) return i - start + 1;
    if (code < 0x20 || code > 0x3f) return 0;
  }
  return text.length - start > 64 ? 0 : undefined;
}

function visible(code: number): string | undefined {
  if (code === 0x0a || code === 0x09) return undefined;
  if (code === 0x1b) return '␛';
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '␡';
  if (code >= 0x80 && code <= 0x9f) return `␛${String.fromCharCode(code - 0x40)}`;
  return undefined;
}

const PIECES = ['a', ' ', '\n', '\t', '\r', '\u001b', '[', '0', ';', 'm', '31', 'H', ']', '\u0007', '\u007f', '\u0085'];
const MORE = ['\u009b', 'é', '€', '\u0000', '\u0008', 'K', '2J', '?', 'x'.repeat(70)];

describe('Neutraliser, a run of plain text at a time', () => {
  it('reads every text as the character-at-a-time reading did, however the chunks fall', () => {
    let seed = 26;
    const next = (n: number) => ((seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff), seed % n);
    const alphabet = [...PIECES, ...MORE];
    for (let round = 0; round < 20_000; round++) {
      const text = Array.from({ length: next(40) }, () => alphabet[next(alphabet.length)]).join('');
      const color = next(2) === 0;
      const cuts = [0, next(text.length + 1), next(text.length + 1), text.length].sort((a, b) => a - b);
      const [fast, slow] = [new Neutraliser({ color }), new CharByChar(color)];
      let [got, want] = ['', ''];
      for (let piece = 0; piece < 3; piece++) {
        got += fast.push(text.slice(cuts[piece], cuts[piece + 1]));
        want += slow.push(text.slice(cuts[piece], cuts[piece + 1]));
      }
      expect({ text, color, cuts, out: got + fast.end() }).toEqual({ text, color, cuts, out: want + slow.end() });
    }
  });
});
