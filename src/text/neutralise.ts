import { StringDecoder } from 'node:string_decoder';
import { Transform } from 'node:stream';

/**
 * Text the agent wrote, made safe for a terminal, a file a person `cat`s, or the job summary: the
 * one way ralph shows the agent's words. Line feeds and tabs pass; SGR colour (`ESC [ … m`) passes
 * only when `color` (a colour terminal) and is dropped otherwise; every other control is shown:
 * - ESC as `␛` followed by the rest of its sequence as plain text (`␛]52;c;…`, `␛[2J`), so it does
 *   nothing (OSC clipboard/title/hyperlink, CSI cursor moves and erases, DCS/APC/PM/SOS);
 * - other C0 controls and DEL as their Unicode control pictures (`␍` for a bare CR, `␇`, `␈`, `␡`);
 *   a CR directly before a LF passes;
 * - an 8-bit C1 control (U+0080–U+009F) as `␛` and its 7-bit form (U+009B, 8-bit CSI, as `␛[`).
 */
export interface NeutraliseOptions {
  color: boolean;
}

const ESC = 0x1b;
/** A sequence still open after this many characters is not colour: shown, not held further. */
const MAX_HELD = 64;
const SGR = /^\u001b\[[0-9;:]*m$/;
/** Every character `push` does not copy as it is: the C0 controls but LF and TAB, DEL, the C1 controls. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** The state across chunks: a sequence (or a CR) split between two chunks is judged whole. */
export class Neutraliser {
  private held = '';

  constructor(private readonly options: NeutraliseOptions) {}

  push(text: string): string {
    const input = this.held + text;
    this.held = '';
    let out = '';
    let i = 0;
    while (i < input.length) {
      // Text between controls is copied a run at a time: an agent prints megabytes of plain text.
      CONTROL.lastIndex = i;
      const next = CONTROL.exec(input)?.index ?? input.length;
      if (next > i) out += i === 0 && next === input.length ? input : input.slice(i, next);
      i = next;
      if (i === input.length) break;
      const code = input.charCodeAt(i);
      if (code === ESC) {
        const length = csiLength(input, i);
        if (length === undefined) {
          this.held = input.slice(i);
          return out;
        }
        const sequence = input.slice(i, i + length);
        if (length > 0 && SGR.test(sequence)) {
          if (this.options.color) out += sequence;
          i += length;
          continue;
        }
        out += '␛';
        i++;
        continue;
      }
      if (code === 0x0d) {
        if (i + 1 === input.length) {
          this.held = '\r';
          return out;
        }
        out += input.charCodeAt(i + 1) === 0x0a ? '\r' : '␍';
        i++;
        continue;
      }
      out += visible(code) ?? input[i];
      i++;
    }
    return out;
  }

  /** What is still held at the end of the stream, shown. */
  end(): string {
    const rest = this.held;
    this.held = '';
    return [...rest].map((char) => visible(char.charCodeAt(0)) ?? char).join('');
  }
}

/** Text the agent wrote, whole: see `Neutraliser`. */
export function neutralise(text: string, options: NeutraliseOptions = { color: false }): string {
  const neutraliser = new Neutraliser(options);
  return neutraliser.push(text) + neutraliser.end();
}

/**
 * Text the agent wrote, shown within one line of ralph's (a table cell, a supervisor's line, a
 * notification's `reason:`): neutralised as above, and every line break in it — LF, CR LF, U+2028,
 * U+2029 — made a space. A line break would let its next words start a line of their own: a
 * workflow command (`::error::…`) where a CI log reads them, or a line that passes for ralph's
 * (`answer: …`). The one way every such place does it.
 */
export function oneLine(text: string): string {
  return neutralise(text).replace(/\r?\n|[\u2028\u2029]/g, ' ');
}

/** A byte stream neutralised as it passes (UTF-8 split across chunks included). */
export function neutralisingStream(options: NeutraliseOptions): Transform {
  const decoder = new StringDecoder('utf8');
  const neutraliser = new Neutraliser(options);
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      callback(null, neutraliser.push(decoder.write(chunk)));
    },
    flush(callback) {
      callback(null, neutraliser.push(decoder.end()) + neutraliser.end());
    },
  });
}

/**
 * The length of the CSI sequence at `start` (an ESC), 0 when it is not a CSI, undefined when the
 * text ends before it does (the next chunk decides).
 */
function csiLength(text: string, start: number): number | undefined {
  if (start + 1 === text.length) return undefined;
  if (text[start + 1] !== '[') return 0;
  for (let i = start + 2; i < text.length; i++) {
    if (i - start > MAX_HELD) return 0;
    const code = text.charCodeAt(i);
    if (code >= 0x40 && code <= 0x7e) return i - start + 1;
    if (code < 0x20 || code > 0x3f) return 0;
  }
  return text.length - start > MAX_HELD ? 0 : undefined;
}

/** The visible form of a control character; undefined for anything that may pass as it is. */
function visible(code: number): string | undefined {
  if (code === 0x0a || code === 0x09) return undefined;
  if (code === ESC) return '␛';
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return '␡';
  if (code >= 0x80 && code <= 0x9f) return `␛${String.fromCharCode(code - 0x40)}`;
  return undefined;
}
