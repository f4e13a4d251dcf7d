import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { classifyAgentFailure } from '../../../../src/agent/claude/failure-words.js';
import { networkFixHint, setupFixHint } from '../../../../src/agent/claude/hints.js';

const fixture = (name: string) => readFileSync(new URL(`../../../fixtures/claude/${name}`, import.meta.url), 'utf8');

describe('classifyAgentFailure', () => {
  it.each([
    ['Invalid API key · Please run /login'],
    ['Not logged in · Please run /login'],
    ['Please run /login'],
    ['OAuth token has expired. Please obtain a new token or refresh your existing token.'],
    ['API Error: OAuth token has been revoked'],
    ['API Error: 401 {"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}'],
    ['{"type":"assistant","error":"authentication_failed"}'],
    ['invalid api key'],
  ])('calls %j a login failure', (line) => {
    expect(classifyAgentFailure(line)).toEqual({ kind: 'auth', message: line });
  });

  it('calls the root refusal a set-up failure', () => {
    const line = '--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons';
    expect(classifyAgentFailure(line)).toEqual({ kind: 'setup', message: line });
  });

  it('returns the matching line, trimmed, not the whole text', () => {
    const text = 'Warning: something harmless\r\n\t  Not logged in · Please run /login  \r\nmore\n';
    expect(classifyAgentFailure(text)).toEqual({ kind: 'auth', message: 'Not logged in · Please run /login' });
  });

  it('prefers the set-up refusal over a login message anywhere in the text', () => {
    const text =
      'Not logged in · Please run /login\n--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons';
    expect(classifyAgentFailure(text)?.kind).toBe('setup');
  });

  it('shortens a very long matching line', () => {
    const failure = classifyAgentFailure(`API Error: 401 ${'x'.repeat(10_000)}`);
    expect(failure?.kind).toBe('auth');
    expect(failure?.message.length).toBe(300);
  });

  it.each([
    '',
    'Error: ENOENT: no such file or directory',
    'API Error: 500 Internal Server Error',
    'API Error: 4010 something',
    'You are logged in as someone',
    'The login page lives in src/login.ts',
    '--dangerously-skip-permissions',
    "You've hit your limit · resets 5am (Europe/Amsterdam)",
    'authentication_failedX',
  ])('finds nothing in %j', (text) => {
    expect(classifyAgentFailure(text)).toBeUndefined();
  });
});

describe('classifyAgentFailure on what the real client printed (2.1.197)', () => {
  it('recognises the root refusal on stderr, in text and stream-json mode', () => {
    for (const name of ['root-refusal.stderr', 'root-refusal.stream.stderr']) {
      expect(classifyAgentFailure(fixture(name))).toEqual({
        kind: 'setup',
        message: '--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons',
      });
    }
    expect(fixture('root-refusal.stdout')).toBe('');
    expect(fixture('root-refusal.exit').trim()).toBe('1');
  });

  it('recognises not-logged-in on stdout in text mode', () => {
    expect(classifyAgentFailure(fixture('not-logged-in.text.stdout'))).toEqual({
      kind: 'auth',
      message: 'Not logged in · Please run /login',
    });
    expect(fixture('not-logged-in.text.exit').trim()).toBe('1');
  });

  it('recognises not-logged-in in the synthetic assistant message and the error result of the stream', () => {
    const events = fixture('not-logged-in.stream.jsonl')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as Record<string, any>);
    expect(events.map((event) => event.type)).toEqual(['system', 'assistant', 'result']);
    const [, assistant, result] = events;
    expect(assistant?.error).toBe('authentication_failed');
    expect(assistant?.message.model).toBe('<synthetic>');
    expect(classifyAgentFailure(assistant?.message.content[0].text)).toEqual({
      kind: 'auth',
      message: 'Not logged in · Please run /login',
    });
    expect(classifyAgentFailure(assistant?.error)).toEqual({ kind: 'auth', message: 'authentication_failed' });
    // subtype says success although it failed: is_error is what counts.
    expect(result).toMatchObject({ subtype: 'success', is_error: true });
    expect(classifyAgentFailure(result?.result)).toEqual({
      kind: 'auth',
      message: 'Not logged in · Please run /login',
    });
  });

  it('recognises not-logged-in in the json-mode result', () => {
    const result = JSON.parse(fixture('not-logged-in.json.stdout')) as { is_error: boolean; result: string };
    expect(result.is_error).toBe(true);
    expect(classifyAgentFailure(result.result)?.kind).toBe('auth');
  });

  it('finds no login or set-up failure in a stream that only retried without network', () => {
    expect(classifyAgentFailure(fixture('no-network.stream.jsonl'))).toBeUndefined();
  });
});

describe('classifyAgentFailure: an unreachable API', () => {
  it("recognises the real client's no-network ending (fixture: no-network-ending.stream.jsonl)", () => {
    const lines = fixture('no-network-ending.stream.jsonl')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const result = lines.at(-1) as { is_error: boolean; result: string };
    expect(result.is_error).toBe(true);
    expect(classifyAgentFailure(result.result)).toEqual({
      kind: 'setup',
      cause: 'network',
      message: 'API Error: Unable to connect to API (FailedToOpenSocket)',
    });
  });

  it.each([
    'Unable to connect to API (ConnectionRefused)',
    'API Error: Connection error. (ECONNREFUSED)',
    'request to https://api.anthropic.com/v1/messages failed, reason: getaddrinfo ENOTFOUND api.anthropic.com',
    'API Error: getaddrinfo EAI_AGAIN api.anthropic.com',
    'API Error: connect ETIMEDOUT 160.79.104.10:443',
    'API Error: self signed certificate in certificate chain',
    'API Error: request failed: UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  ])('%j is a network failure', (line) => {
    expect(classifyAgentFailure(line)).toMatchObject({ kind: 'setup', cause: 'network' });
  });

  it("does not take a project's own error codes, without a word about connecting, for the network", () => {
    expect(classifyAgentFailure('AssertionError: expected ETIMEDOUT to equal ok')).toBeUndefined();
  });

  it('puts the root refusal first, and the network before a login message', () => {
    expect(
      classifyAgentFailure(`Invalid API key\nAPI Error: Unable to connect to API (FailedToOpenSocket)`),
    ).toMatchObject({ cause: 'network' });
    expect(classifyAgentFailure(`${fixture('root-refusal.stderr')}\nUnable to connect to API`)).not.toHaveProperty(
      'cause',
    );
  });
});

describe('networkFixHint', () => {
  it('names the network, the proxy and CA variables, and a reachability test', () => {
    expect(networkFixHint()).toMatch(
      /network.*HTTPS_PROXY.*NODE_EXTRA_CA_CERTS.*curl -sI https:\/\/api\.anthropic\.com/,
    );
  });
});

describe('setupFixHint', () => {
  it('names both ways out of the root refusal', () => {
    const hint = setupFixHint();
    expect(hint).toMatch(/normal \(non-root\) user/);
    expect(hint).toContain('IS_SANDBOX=1');
    expect(hint).toMatch(/container/);
  });
});
