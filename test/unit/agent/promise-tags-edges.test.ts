import { describe, expect, it } from 'vitest';
import { parsePromiseTag, PromiseTagScanner } from '../../../src/agent/promise-tags.js';
import type { PromiseSignals } from '../../../src/domain/promise-signals.js';

/** The signals found in output that arrives in these pieces. */
function scan(...pieces: (string | Buffer)[]): PromiseSignals {
  const scanner = new PromiseTagScanner();
  for (const piece of pieces) scanner.push(piece);
  return scanner.signals();
}

const carried = (scanner: PromiseTagScanner): number => (scanner as unknown as { carry: Buffer }).carry.length;
const MAX_BODY = 16 * 1024;

describe('promise tags: what counts as a signal', () => {
  it('a word must start the tag: "I am not BLOCKED: x" is not BLOCKED', () => {
    expect(parsePromiseTag('I am not BLOCKED: x')).toEqual({ kind: 'invalid' });
    expect(parsePromiseTag('maybe DECIDE: x')).toEqual({ kind: 'invalid' });
    expect(scan('<promise>I am not BLOCKED: x</promise>')).toEqual({
      complete: false,
      invalid: ['<promise>I am not BLOCKED: x</promise>'],
    });
  });

  it('COMPLETE must be the whole tag, blank space around it aside', () => {
    expect(parsePromiseTag('\n COMPLETE \t')).toEqual({ kind: 'complete' });
    expect(parsePromiseTag('NOT COMPLETE')).toEqual({ kind: 'invalid' });
  });

  it('a reason of blank space only is no reason', () => {
    expect(parsePromiseTag('BLOCKED:   \n ')).toEqual({ kind: 'invalid' });
    expect(parsePromiseTag('DECIDE:\t')).toEqual({ kind: 'invalid' });
  });

  it('keeps a reason that spans lines, trimmed at both ends', () => {
    expect(parsePromiseTag('BLOCKED:\n  the API key is missing\n  (see .env.example)  \n')).toEqual({
      kind: 'blocked',
      text: 'the API key is missing\n  (see .env.example)',
    });
  });

  it('keeps a question that itself contains a colon', () => {
    expect(parsePromiseTag('DECIDE: REST: or GraphQL?')).toEqual({ kind: 'decide', text: 'REST: or GraphQL?' });
  });
});

describe('promise tags: what is kept of tags that are no signal', () => {
  it('keeps the first ten, however many the agent prints', () => {
    const tags = Array.from({ length: 12 }, (_, index) => `<promise>DONE ${index}</promise>`);
    const { invalid } = scan(tags.join('\n'));
    expect(invalid).toEqual(tags.slice(0, 10));
  });

  it('cuts a long body to its first 200 characters', () => {
    const body = `${'a'.repeat(200)}${'b'.repeat(100)}`;
    expect(scan(`<promise>${body}</promise>`).invalid).toEqual([`<promise>${'a'.repeat(200)}</promise>`]);
  });

  it('keeps a body of exactly 200 characters whole', () => {
    const body = 'c'.repeat(200);
    expect(scan(`<promise>${body}</promise>`).invalid).toEqual([`<promise>${body}</promise>`]);
  });

  it('hands out a copy: changing it changes nothing the scanner found', () => {
    const scanner = new PromiseTagScanner();
    scanner.push('<promise>DONE</promise>');
    scanner.signals().invalid.push('x');
    const signals = scanner.signals();
    signals.complete = true;
    expect(scanner.signals()).toEqual({ complete: false, invalid: ['<promise>DONE</promise>'] });
  });
});

describe('promise tags across pieces', () => {
  it('finds a tag whose "<" sits at offset 1 of a piece', () => {
    expect(scan('x<promise>COMPLETE</promise>')).toMatchObject({ complete: true });
    expect(scan('ab', 'x<prom', 'ise>COMPLETE</promise>')).toMatchObject({ complete: true });
    expect(scan(Buffer.from('x<'), Buffer.from('promise>BLOCKED:why</promise>'))).toMatchObject({ blocked: 'why' });
  });

  it('an empty tag does not hide the tags after it', () => {
    expect(scan('<promise></promise> then <promise>BLOCKED:no key</promise>')).toEqual({
      complete: false,
      blocked: 'no key',
      invalid: ['<promise></promise>'],
    });
    expect(scan('<promise>?</promise><promise>COMPLETE</promise>')).toMatchObject({ complete: true });
  });

  it('carries a tag opened late in a long piece to the next piece', () => {
    expect(scan(`${'x'.repeat(MAX_BODY + 100)}<promise>BLOCKED:no`, ' key</promise>')).toMatchObject({
      blocked: 'no key',
    });
  });

  it('carries an open tag through a piece that holds no "<" at all', () => {
    expect(scan('<promise>BLOCKED:', 'no key for', ' the API', '</promise>')).toMatchObject({
      blocked: 'no key for the API',
    });
  });

  it('carries the start of an opener cut at any byte', () => {
    const text = 'see <promise>DECIDE:which db?</promise> now';
    for (let cut = 4; cut <= 13; cut++) {
      expect(scan(text.slice(0, cut), text.slice(cut)).decide).toBe('which db?');
    }
  });

  it('does not take "<prom" followed by other text for the start of a tag', () => {
    const scanner = new PromiseTagScanner();
    scanner.push('a <prom');
    expect(carried(scanner)).toBe('<prom'.length);
    scanner.push('pt> and more');
    expect(carried(scanner)).toBe(0);
    scanner.push('ise>COMPLETE</promise>');
    expect(scanner.signals().complete).toBe(false);
  });

  it('carries nothing once every tag in a piece is closed', () => {
    const scanner = new PromiseTagScanner();
    scanner.push('<promise>DONE</promise> then text < and <b>');
    expect(carried(scanner)).toBe(0);
  });

  it('carries only the last "<" of a piece ending in several', () => {
    const scanner = new PromiseTagScanner();
    scanner.push('a < b <');
    expect(carried(scanner)).toBe(1);
    scanner.push('promise>COMPLETE</promise>');
    expect(scanner.signals().complete).toBe(true);
  });

  it('reads tags in strings and in bytes alike, a multi-byte reason included', () => {
    expect(scan('<promise>BLOCKED:clé manquante</promise>')).toMatchObject({ blocked: 'clé manquante' });
    expect(scan(Buffer.from('<promise>BLOCKED:clé manquante</promise>'))).toMatchObject({ blocked: 'clé manquante' });
  });
});

describe('promise tags: the byte limit on an unclosed tag', () => {
  const closer = '</promise>';

  it('an open tag one byte longer than a whole body plus all but the last byte of its closer is dropped', () => {
    const scanner = new PromiseTagScanner();
    scanner.push(`<promise>BLOCKED:${'x'.repeat(MAX_BODY - 'BLOCKED:'.length + closer.length)}`);
    expect(carried(scanner)).toBe(0);
    scanner.push(closer);
    expect(scanner.signals()).toEqual({ complete: false, invalid: [] });
  });

  it('an open tag holding all but the last byte of its closer, at the full body length, is carried', () => {
    const scanner = new PromiseTagScanner();
    const body = `BLOCKED:${'x'.repeat(MAX_BODY - 'BLOCKED:'.length)}`;
    scanner.push(`<promise>${body}${closer.slice(0, -1)}`);
    expect(carried(scanner)).toBe('<promise>'.length + MAX_BODY + closer.length - 1);
    scanner.push('>');
    expect(scanner.signals().blocked).toBe('x'.repeat(MAX_BODY - 'BLOCKED:'.length));
  });

  it('a tag whose body runs past the limit but arrives whole in one piece is still read', () => {
    const reason = 'y'.repeat(MAX_BODY + 10);
    expect(scan(`<promise>BLOCKED:${reason}</promise>`).blocked).toBe(reason);
  });

  it('after dropping a runaway body, still finds a later tag', () => {
    expect(scan('<promise>', 'z'.repeat(MAX_BODY + 100), 'text <promise>COMPLETE</promise>')).toMatchObject({
      complete: true,
    });
  });
});
