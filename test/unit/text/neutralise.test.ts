import { describe, expect, it } from 'vitest';
import { neutralise, Neutraliser, neutralisingStream } from '../../../src/text/neutralise.js';

const ESC = '\u001b';

describe('neutralise', () => {
  it.each([
    ['OSC 52 clipboard', `${ESC}]52;c;cGF5bG9hZA==\u0007`, '␛]52;c;cGF5bG9hZA==␇'],
    ['OSC 0 title, ST-terminated', `${ESC}]0;pwned${ESC}\\`, '␛]0;pwned␛\\'],
    ['OSC 8 hyperlink', `${ESC}]8;;https://x${ESC}\\a${ESC}]8;;${ESC}\\`, '␛]8;;https://x␛\\a␛]8;;␛\\'],
    ['cursor up and erase', `${ESC}[3A${ESC}[2K${ESC}[J`, '␛[3A␛[2K␛[J'],
    ['scroll region', `${ESC}[1;5r`, '␛[1;5r'],
    ['DCS', `${ESC}Pq#0${ESC}\\`, '␛Pq#0␛\\'],
    ['APC, PM, SOS', `${ESC}_a${ESC}^b${ESC}Xc`, '␛_a␛^b␛Xc'],
    ['a bare CR', 'ralph line\rfake', 'ralph line␍fake'],
    ['backspace, bell, NUL, DEL', 'a\b\u0007\u0000\u007f', 'a␈␇␀␡'],
    ['8-bit CSI and OSC', '\u009b2J\u009d0;t\u009c', '␛[2J␛]0;t␛\\'],
  ])('shows %s visibly', (_name, input, shown) => {
    expect(neutralise(input, { color: true })).toBe(shown);
  });

  it('lets colour through to a colour terminal only, and keeps line feeds, CRLF and tabs', () => {
    const text = `${ESC}[1;31mred${ESC}[0m\tx\r\ny\n`;
    expect(neutralise(text, { color: true })).toBe(text);
    expect(neutralise(text, { color: false })).toBe('red\tx\r\ny\n');
  });

  it('judges a sequence split across chunks whole, at every split point', () => {
    const input = `ok ${ESC}]52;c;eA==\u0007 ${ESC}[31mred${ESC}[0m ${ESC}[2J line\r\nend\r`;
    const whole = neutralise(input, { color: true });
    for (let cut = 0; cut <= input.length; cut++) {
      const neutraliser = new Neutraliser({ color: true });
      const out = neutraliser.push(input.slice(0, cut)) + neutraliser.push(input.slice(cut)) + neutraliser.end();
      expect(out, `cut at ${cut}`).toBe(whole);
      expect(out).not.toContain(`${ESC}]`);
      expect(out).not.toContain(`${ESC}[2J`);
    }
    expect(whole.endsWith('end␍')).toBe(true);
  });

  it('decodes bytes split inside a UTF-8 character and an escape', async () => {
    const stream = neutralisingStream({ color: false });
    const bytes = Buffer.from(`é${ESC}[2Kx\u009b`);
    const chunks: string[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
    for (const byte of bytes) stream.write(Buffer.from([byte]));
    stream.end();
    await new Promise((resolve) => stream.on('end', resolve));
    expect(chunks.join('')).toBe('é␛[2Kx␛[');
  });

  it('never holds back an unterminated sequence without bound', () => {
    const neutraliser = new Neutraliser({ color: true });
    const out = neutraliser.push(`${ESC}[${'1;'.repeat(100)}`);
    expect(out.startsWith('␛[1;')).toBe(true);
  });
});
