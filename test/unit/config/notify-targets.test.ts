import { describe, expect, it } from 'vitest';
import { splitCommand } from '../../../src/config/command-words.js';
import { maskTarget, maskTokens, maskUrl } from '../../../src/config/mask-secrets.js';
import { notifyEvents, notifyTargets } from '../../../src/config/notify-targets.js';
import { parseTarget } from '../../../src/config/targets/target-kinds.js';
import { parseRepeated, parseText } from '../../../src/config/value-kinds.js';

describe('splitCommand', () => {
  it.each([
    ['notify-me', ['notify-me']],
    ['  a   b\tc ', ['a', 'b', 'c']],
    [`say 'two words' "and \\"three\\" \\\\ here"`, ['say', 'two words', 'and "three" \\ here']],
    ['a\\ b c', ['a b', 'c']],
    [`x ''`, ['x', '']],
    ['echo $HOME;rm -rf / | tee `id` *', ['echo', '$HOME;rm', '-rf', '/', '|', 'tee', '`id`', '*']],
    [`it's"quoted"`, null],
  ])('splits %j', (command, argv) => {
    const split = splitCommand(command);
    if (argv === null) expect(split.ok).toBe(false);
    else expect(split).toEqual({ ok: true, argv });
  });

  it('refuses an empty command, an open quote and a trailing backslash, saying which', () => {
    expect(splitCommand('  ')).toEqual({ ok: false, error: 'no command after cmd:' });
    expect(splitCommand(`a "b`)).toEqual({ ok: false, error: 'a double quote is never closed' });
    expect(splitCommand(`a 'b`)).toEqual({ ok: false, error: 'a single quote is never closed' });
    expect(splitCommand('a \\')).toEqual({ ok: false, error: 'a backslash ends the command' });
  });
});

describe('parseTarget', () => {
  it('takes desktop, https anywhere, http to this machine only, and cmd:', () => {
    expect(parseTarget('desktop')).toEqual({ ok: true, target: { kind: 'desktop' } });
    expect(parseTarget('https://hooks.slack.com/services/x')).toMatchObject({ ok: true, target: { kind: 'webhook' } });
    for (const host of ['localhost', '127.0.0.1', '[::1]'])
      expect(parseTarget(`http://${host}:8080/hook`)).toMatchObject({ ok: true, target: { kind: 'webhook' } });
    expect(parseTarget(`cmd:notify 'a b'`)).toEqual({ ok: true, target: { kind: 'command', argv: ['notify', 'a b'] } });
  });

  it('refuses anything else, naming the value masked', () => {
    const plain = parseTarget('http://hooks.example.com/T0/abcdefgh12345678?token=zzz');
    expect(plain).toEqual({
      ok: false,
      error:
        "plain http:// only to localhost, 127.0.0.1 or ::1 (else https://), got 'http://hooks.example.com/T0/***?***'",
    });
    expect(parseTarget('http://127.0.0.2/')).toMatchObject({ ok: false });
    expect(parseTarget('ftp://x')).toEqual({
      ok: false,
      error: "expected desktop, an https:// URL (http:// only to localhost), or cmd:<command>, got 'ftp://x/'",
    });
    expect(parseTarget('Desktop')).toMatchObject({ ok: false });
    expect(parseTarget('cmd:')).toEqual({ ok: false, error: "no command after cmd:, got 'cmd:'" });
  });

  it('shows a value that is not a list of strings masked too', () => {
    const notString = notifyTargets().schema.safeParse('https://h.example/abcdef0123456789XYZ');
    expect(notString.error?.issues[0]?.message).toBe(
      'expected a list of targets (["desktop"]), got \'https://h.example/***\'',
    );
    expect(notifyTargets().schema.safeParse([5]).error?.issues[0]?.message).toBe(
      'expected a target as a string, got 5',
    );
  });
});

describe('the notify options', () => {
  it('reads RALPH_NOTIFY comma-separated, and each --notify whole', () => {
    expect(parseText(notifyTargets(), 'desktop, https://a.example/x')).toEqual({
      ok: true,
      value: ['desktop', 'https://a.example/x'],
    });
    const first = parseRepeated(notifyTargets(), 'cmd:say a,b', undefined);
    expect(first).toEqual({ ok: true, value: ['cmd:say a,b'] });
    expect(parseRepeated(notifyTargets(), 'desktop', first.ok ? first.value : [])).toEqual({
      ok: true,
      value: ['cmd:say a,b', 'desktop'],
    });
    expect(parseRepeated(notifyTargets(), 'ftp://x', undefined)).toMatchObject({ ok: false });
  });

  it('shows the targets masked', () => {
    expect(notifyTargets().format?.(['desktop', 'https://h.example/a/b?c=d'])).toBe(
      'desktop, https://h.example/a/b?***',
    );
    expect(notifyTargets().format?.([])).toBe('none');
  });

  it('reads --notify-on as a list of known events', () => {
    expect(parseText(notifyEvents(), 'blocked,decide')).toEqual({ ok: true, value: ['blocked', 'decide'] });
    expect(parseText(notifyEvents(), 'blocked,finished')).toMatchObject({ ok: false });
    expect(parseText(notifyEvents(), '')).toMatchObject({ ok: false });
  });
});

describe('masking', () => {
  it('hides a URL’s user, query, fragment and token-like path segments; keeps its host', () => {
    expect(maskUrl('https://user:pw@hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXX1234')).toBe(
      'https://***@hooks.slack.com/services/T00000000/B00000000/***',
    );
    expect(maskUrl('https://example.com/hook?key=abc#frag')).toBe('https://example.com/hook?***');
    expect(maskUrl('http://127.0.0.1:9/hook')).toBe('http://127.0.0.1:9/hook');
  });

  it('hides token-like words and the values of token=, secret=, password=', () => {
    expect(maskTokens('notify --token=abc --user bob xoxb-123 ghp_abcdef 0123456789abcdefXYZ')).toBe(
      'notify --token=*** --user bob *** *** ***',
    );
    expect(maskTokens('sh -c exit')).toBe('sh -c exit');
  });

  it('masks a cmd: target through its words, a URL through its parts', () => {
    expect(maskTarget('cmd:curl -H Authorization:abcdef0123456789XYZ https://x.example')).toBe(
      'cmd:curl -H Authorization:*** https://x.example',
    );
    expect(maskTarget('https://x.example/a?b')).toBe('https://x.example/a?***');
  });
});
