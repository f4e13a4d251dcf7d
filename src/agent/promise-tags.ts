import type { PromiseSignals } from '../domain/promise-signals.js';

// Matched as bytes: ASCII never occurs inside a multi-byte UTF-8 sequence, so the agent's
// output need not be decoded at all except for a tag's body.
const OPEN = Buffer.from('<promise>');
const CLOSE = Buffer.from('</promise>');
const NOTHING = Buffer.alloc(0);
/**
 * An open tag carried across pieces with a body longer than this is runaway text: it is dropped,
 * never buffered. A tag whole in one piece is read whatever its length.
 */
const MAX_TAG_BODY = 16 * 1024;
const MAX_INVALID_KEPT = 10;

/** Reads one tag body: COMPLETE, BLOCKED:reason or DECIDE:question. */
export function parsePromiseTag(
  body: string,
): { kind: 'complete' } | { kind: 'blocked' | 'decide'; text: string } | { kind: 'invalid' } {
  const trimmed = body.trim();
  if (trimmed === 'COMPLETE') return { kind: 'complete' };
  const match = /^(BLOCKED|DECIDE):([\s\S]*)$/.exec(trimmed);
  const text = match?.[2]?.trim();
  if (!match || !text) return { kind: 'invalid' };
  return { kind: match[1] === 'BLOCKED' ? 'blocked' : 'decide', text };
}

/**
 * Finds promise tags in output that arrives in pieces. Only an unfinished tag (or the start
 * of one) is carried between pieces, so memory stays bounded however much passes.
 */
export class PromiseTagScanner {
  private carry: Buffer = NOTHING;
  private readonly found: PromiseSignals = { complete: false, invalid: [] };

  /** Feeds the next piece of output (raw bytes, or text already decoded). */
  push(piece: Buffer | string): void {
    // Most output holds no "<" at all: nothing to find, nothing to carry (a memchr, no copy).
    if (this.carry.length === 0 && piece.indexOf('<') === -1) return;
    const bytes = typeof piece === 'string' ? Buffer.from(piece) : piece;
    const buffer = this.carry.length === 0 ? bytes : Buffer.concat([this.carry, bytes]);
    let position = 0;
    for (;;) {
      const open = buffer.indexOf(OPEN, position);
      if (open === -1) break;
      const close = buffer.indexOf(CLOSE, open + OPEN.length);
      if (close === -1) break;
      // In "<promise>junk <promise>COMPLETE</promise>" the tag is the opener nearest the closer.
      const start = lastBefore(buffer, OPEN, open, close);
      this.record(buffer.toString('utf8', start + OPEN.length, close));
      position = close + CLOSE.length;
    }
    this.carry = unfinishedTag(buffer, position);
  }

  /** The signals seen so far. */
  signals(): PromiseSignals {
    return { ...this.found, invalid: [...this.found.invalid] };
  }

  private record(body: string): void {
    const tag = parsePromiseTag(body);
    switch (tag.kind) {
      case 'complete':
        this.found.complete = true;
        break;
      case 'blocked':
        this.found.blocked ??= tag.text;
        break;
      case 'decide':
        this.found.decide ??= tag.text;
        break;
      case 'invalid':
        // A handful is enough to explain the mistake; an agent printing thousands must not grow memory.
        if (this.found.invalid.length < MAX_INVALID_KEPT)
          this.found.invalid.push(`<promise>${body.slice(0, 200)}</promise>`);
        break;
    }
  }
}

/** The last occurrence of `needle` from `from` on that starts before `limit` (`from` itself is one). */
function lastBefore(buffer: Buffer, needle: Buffer, from: number, limit: number): number {
  let last = from;
  for (
    let next = buffer.indexOf(needle, last + 1);
    next !== -1 && next < limit;
    next = buffer.indexOf(needle, next + 1)
  )
    last = next;
  return last;
}

/** What must wait for the next piece: an opened tag not yet closed, or the start of "<promise>". */
function unfinishedTag(buffer: Buffer, position: number): Buffer {
  const open = buffer.indexOf(OPEN, position);
  if (open !== -1) {
    const start = lastBefore(buffer, OPEN, open, buffer.length);
    // Room for a whole body and all of its closer but the last byte, which would have ended the tag.
    // A copy: the stream may reuse the chunk's memory once we return.
    if (buffer.length - start <= OPEN.length + MAX_TAG_BODY + CLOSE.length - 1)
      return Buffer.from(buffer.subarray(start));
  }
  // Only a "<" among the last few bytes can start an opener that the next piece completes.
  const tail = Math.max(position, buffer.length - (OPEN.length - 1));
  for (let at = buffer.indexOf(OPEN[0]!, tail); at !== -1; at = buffer.indexOf(OPEN[0]!, at + 1)) {
    if (buffer.subarray(at).equals(OPEN.subarray(0, buffer.length - at))) return Buffer.from(buffer.subarray(at));
  }
  return NOTHING;
}
