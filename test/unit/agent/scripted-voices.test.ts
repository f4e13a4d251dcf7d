import { describe, expect, it } from 'vitest';
import { AGENT_KINDS, dialectOf, scriptedAnswer, voiceFor } from '../../../src/agent/dialects.js';

describe("the scripted stand-in, speaking through the dialects' table", () => {
  it('answers each login check as the voice whose client asks it, logged out by default', () => {
    expect(scriptedAnswer(['auth', 'status'], {})).toEqual({ stdout: '{"loggedIn": false}\n', exitCode: 1 });
    expect(scriptedAnswer(['login', 'status'], {})).toEqual({ stdout: 'Not logged in\n', exitCode: 1 });
  });

  it('says logged in when the test environment says so', () => {
    expect(scriptedAnswer(['auth', 'status'], { RALPH_AGENT_AUTH_STATUS: '{"loggedIn": true}' })?.exitCode).toBe(0);
    expect(scriptedAnswer(['login', 'status'], { RALPH_AGENT_LOGIN_STATUS: 'Logged in using ChatGPT' })).toEqual({
      stdout: 'Logged in using ChatGPT\n',
      exitCode: 0,
    });
  });

  it('takes no call for a question: every command line a dialect builds goes unanswered', () => {
    for (const kind of AGENT_KINDS) {
      const { args: argv } = dialectOf(kind).command(kind, {
        prompt: 'do the next story',
        output: 'stream-json',
        skipPermissions: true,
        args: [],
      });
      expect(scriptedAnswer(argv, {}), kind).toBeUndefined();
      expect(voiceFor(argv), kind).toBe(dialectOf(kind).voice);
    }
  });
});
