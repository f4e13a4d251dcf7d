import { describe, expect, it } from 'vitest';
import { parsePromiseTag, PromiseTagScanner } from '../../../src/agent/promise-tags.js';

function scan(...pieces: string[]) {
  const scanner = new PromiseTagScanner();
  for (const piece of pieces) scanner.push(piece);
  return scanner.signals();
}

describe('PromiseTagScanner', () => {
  it.each([
    ['a whole tag', ['<promise>COMPLETE</promise>'], { complete: true }],
    ['a tag inside longer text', ['Done.<promise>COMPLETE</promise>Bye'], { complete: true }],
    ['a tag split in the opener', ['<prom', 'ise>COMPLETE</promise>'], { complete: true }],
    ['a tag split in the body', ['<promise>COMP', 'LETE</promise>'], { complete: true }],
    ['a tag split in the closer', ['<promise>COMPLETE</pro', 'mise>'], { complete: true }],
    ['a tag split into single characters', [...'<promise>COMPLETE</promise>'], { complete: true }],
    ['a blocked reason', ['<promise>BLOCKED:no API key</promise>'], { blocked: 'no API key' }],
    [
      'a decide question across lines',
      ['<promise>DECIDE:REST\nor GraphQL?</promise>'],
      { decide: 'REST\nor GraphQL?' },
    ],
    ['padding around the body', ['<promise>  COMPLETE \n</promise>'], { complete: true }],
  ])('finds %s', (_name, pieces, expected) => {
    expect(scan(...pieces)).toMatchObject(expected);
  });

  it('keeps the first reason and question when several tags appear', () => {
    const signals = scan(
      '<promise>BLOCKED:first</promise> <promise>BLOCKED:second</promise>',
      '<promise>DECIDE:q1</promise><promise>COMPLETE</promise>',
    );
    expect(signals).toEqual({ complete: true, blocked: 'first', decide: 'q1', invalid: [] });
  });

  it('treats empty reasons and unknown words as no signal, but remembers them', () => {
    const signals = scan('<promise>BLOCKED:</promise><promise>DECIDE:   </promise><promise>DONE</promise>');
    expect(signals.complete).toBe(false);
    expect(signals.blocked).toBeUndefined();
    expect(signals.decide).toBeUndefined();
    expect(signals.invalid).toEqual([
      '<promise>BLOCKED:</promise>',
      '<promise>DECIDE:   </promise>',
      '<promise>DONE</promise>',
    ]);
  });

  it('ignores a tag without its closing part', () => {
    expect(scan('<promise>COMPLETE', ' and then nothing')).toEqual({ complete: false, invalid: [] });
  });

  it('ignores a stray closer and lowercase words', () => {
    expect(scan('</promise> <promise>complete</promise>')).toMatchObject({
      complete: false,
      invalid: ['<promise>complete</promise>'],
    });
  });

  it('reads the innermost opener when openers repeat', () => {
    expect(scan('<promise><promise>COMPLETE</promise>').complete).toBe(true);
  });

  it('reads raw bytes, decoding only the body, even when a character is split between chunks', () => {
    const bytes = Buffer.from('Fertig ✓ <promise>BLOCKED:Schlüssel fehlt ✗</promise>');
    const scanner = new PromiseTagScanner();
    // Cut inside the multi-byte "ü" and "✗".
    const cuts = [bytes.indexOf('ü') + 1, bytes.indexOf('✗') + 2];
    scanner.push(bytes.subarray(0, cuts[0]));
    scanner.push(bytes.subarray(cuts[0], cuts[1]));
    scanner.push(bytes.subarray(cuts[1]));
    expect(scanner.signals().blocked).toBe('Schlüssel fehlt ✗');
  });

  it('finds every tag in one large chunk', () => {
    const filler = 'x'.repeat(70_000);
    expect(
      scan(
        `${filler}<promise>DONE</promise>${filler}<promise>DECIDE:which?</promise>${filler}<pro`,
        'mise>COMPLETE</promise>',
      ),
    ).toEqual({
      complete: true,
      decide: 'which?',
      invalid: ['<promise>DONE</promise>'],
    });
  });

  it('finds a tag whose body is as long as allowed even when its closer is cut between pieces', () => {
    const body = `BLOCKED:${'x'.repeat(16 * 1024 - 'BLOCKED:'.length)}`;
    for (const cut of [1, 4, '</promise>'.length - 1]) {
      const closer = '</promise>';
      expect(scan(`<promise>${body}${closer.slice(0, cut)}`, closer.slice(cut)).blocked).toBe(
        'x'.repeat(16 * 1024 - 'BLOCKED:'.length),
      );
    }
  });

  it('does not buffer runaway text after an opener without end', () => {
    const scanner = new PromiseTagScanner();
    scanner.push('<promise>');
    for (let index = 0; index < 100; index++) scanner.push('x'.repeat(1024));
    scanner.push('<promise>COMPLETE</promise>');
    expect(scanner.signals().complete).toBe(true);
    expect((scanner as unknown as { carry: Buffer }).carry.length).toBeLessThan(20 * 1024);
  });
});

describe('parsePromiseTag', () => {
  it.each([
    ['COMPLETE', { kind: 'complete' }],
    ['BLOCKED:x', { kind: 'blocked', text: 'x' }],
    ['DECIDE: y ', { kind: 'decide', text: 'y' }],
    ['BLOCKED', { kind: 'invalid' }],
    ['COMPLETE!', { kind: 'invalid' }],
    ['', { kind: 'invalid' }],
  ])('%j', (body, expected) => {
    expect(parsePromiseTag(body)).toEqual(expected);
  });
});

describe('PromiseTagScanner fast path', () => {
  it('carries an opener cut right after its "<", even when the piece before held no other "<"', () => {
    expect(scan('plain text <', 'promise>COMPLETE</promise>').complete).toBe(true);
    expect(scan('plain text', '<', 'promise>COMPLETE</promise>').complete).toBe(true);
  });

  it('carries nothing from a piece without "<"', () => {
    const scanner = new PromiseTagScanner();
    scanner.push('promise>COMPLETE</promise>');
    expect(scanner.signals().complete).toBe(false);
    expect((scanner as unknown as { carry: Buffer }).carry.length).toBe(0);
  });
});
