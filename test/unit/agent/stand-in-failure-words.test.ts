import { describe, expect, it } from 'vitest';
import { amp } from '../../../src/agent/amp/dialect.js';
import { gemini } from '../../../src/agent/gemini/dialect.js';
import { opencode } from '../../../src/agent/opencode/dialect.js';

// What the real clients printed against the stand-in APIs of test/real-clients (2026-12-06).
describe('the failure words the real clients showed against a stand-in API', () => {
  it("OpenCode 1.18.33's pass-through of an OpenAI-compatible 401 is an auth failure, with its login fix", () => {
    const said =
      'Incorrect API key provided: stand-in*key. You can find your API key at https://platform.openai.com/account/api-keys.';
    expect(opencode.classifyFailure(said)).toMatchObject({
      kind: 'auth',
      hint: expect.stringContaining('opencode auth login'),
    });
  });

  it("Amp's words for a key its server refuses are an auth failure", () => {
    const said = "Error: Invalid or missing API key. Run 'amp login' to authenticate.";
    expect(amp.classifyFailure(said)).toMatchObject({ kind: 'auth', hint: expect.stringContaining('AMP_API_KEY') });
  });

  it('Gemini CLI 0.61 with a base URL and no selected auth type (exit 41) is an auth failure', () => {
    expect(gemini.classifyFailure('Invalid auth method selected.')).toMatchObject({ kind: 'auth' });
  });

  it('prose about keys is no failure', () => {
    expect(opencode.classifyFailure('I checked that the API key is provided by the config.')).toBeUndefined();
    expect(amp.classifyFailure('Amp reads the key from AMP_API_KEY.')).toBeUndefined();
  });
});
