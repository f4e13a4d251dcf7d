/** What the agent signalled with `<promise>…</promise>` tags during one iteration. */
export interface PromiseSignals {
  complete: boolean;
  /** The first non-empty BLOCKED reason. */
  blocked?: string;
  /** The first non-empty DECIDE question. */
  decide?: string;
  /** Tags that are no signal: empty reasons, unknown words (`<promise>DONE</promise>`). */
  invalid: string[];
}

const OPEN = '<promise>';
const CLOSE = '</promise>';
/** A tag body longer than this is not a tag but runaway text: it is dropped, not buffered. */
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
 * Finds promise tags in text that arrives in pieces. Only an unfinished tag (or the start
 * of one) is carried between pieces, so memory stays bounded however much text passes.
 */
export class PromiseTagScanner {
  private carry = '';
  private readonly found: PromiseSignals = { complete: false, invalid: [] };

  /** Feeds the next piece of text. */
  push(text: string): void {
    let buffer = this.carry + text;
    let position = 0;
    for (;;) {
      const close = buffer.indexOf(CLOSE, position);
      if (close === -1) break;
      const open = buffer.lastIndexOf(OPEN, close);
      if (open >= position) this.record(buffer.slice(open + OPEN.length, close));
      position = close + CLOSE.length;
    }
    buffer = buffer.slice(position);
    const open = buffer.lastIndexOf(OPEN);
    if (open !== -1) {
      const pending = buffer.slice(open);
      this.carry = pending.length > OPEN.length + MAX_TAG_BODY ? '' : pending;
    } else {
      this.carry = partialOpenSuffix(buffer);
    }
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
        if (this.found.invalid.length < MAX_INVALID_KEPT) this.found.invalid.push(`${OPEN}${body.slice(0, 200)}${CLOSE}`);
        break;
    }
  }
}

/** The end of `text` that could be the beginning of `<promise>` ("<pro"), or "". */
function partialOpenSuffix(text: string): string {
  for (let length = Math.min(OPEN.length - 1, text.length); length > 0; length--) {
    if (OPEN.startsWith(text.slice(-length))) return text.slice(-length);
  }
  return '';
}
