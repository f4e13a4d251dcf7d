import { describe, expect, it } from 'vitest';
import { RalphError } from '../../../src/errors.js';
import { endingOf, exitCodeFor } from '../../../src/loop/termination.js';
import { failed, refusalOf, type Check } from '../../../src/run-lifecycle/check.js';

// The start checks' one refusal, the dry run's and the real run's alike.

const ok: Check = { name: 'agent', status: 'ok', detail: '/usr/bin/claude' };
const warning: Check = { name: 'logs', status: 'warning', detail: 'made with ralph/' };
const root = failed('root', new RalphError('setup', 'claude refuses to run as root', 'run as a normal user'));
const login = failed('login', new RalphError('setup', 'Claude Code is not logged in', 'run `claude` once'));
const network = failed('network', new RalphError('setup', 'cannot reach https://api.anthropic.com: refused'));

describe('refusalOf: every failed start check at once', () => {
  it('nothing failed (warnings are no failure): no refusal', () => {
    expect(refusalOf([ok, warning])).toBeUndefined();
  });

  it('one failure is thrown as it is, its own message and fix', () => {
    expect(refusalOf([ok, login, warning])).toBe(login.error);
  });

  it('several are named together, in their order, each with its fix, one line each', () => {
    const refusal = refusalOf([ok, root, warning, login, network]);
    expect(refusal?.message).toBe(
      [
        '3 start checks failed:',
        '  root: claude refuses to run as root — run as a normal user',
        '  login: Claude Code is not logged in — run `claude` once',
        '  network: cannot reach https://api.anthropic.com: refused',
      ].join('\n'),
    );
    expect(refusal?.hint).toBeUndefined();
    expect(exitCodeFor(endingOf(refusal!))).toBe(64);
  });

  it("the first failure's kind decides the exit code: a BLOCKED listed first still exits 2", () => {
    const blocked = failed('signals', new RalphError('blocked', 'the loop is blocked: no key', 'answer it'));
    const refusal = refusalOf([blocked, login]);
    expect(refusal?.kind).toBe('blocked');
    expect(exitCodeFor(endingOf(refusal!))).toBe(2);
  });
});
