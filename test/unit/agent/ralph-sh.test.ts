import { describe, expect, it } from 'vitest';
import { dialectOf } from '../../../src/agent/dialects.js';
import { promptLeansOnItsClient, RALPH_SH_PROMPTS } from '../../../src/agent/ralph-sh.js';

const AMP_PROMPT = 'Add the thread URL: https://ampcode.com/threads/$AMP_CURRENT_THREAD_ID';

describe("ralph.sh's two clients", () => {
  it('names its prompt files, the default first', () => {
    expect(RALPH_SH_PROMPTS).toEqual(['prompt.md', 'CLAUDE.md']);
  });

  it('warns that an Amp prompt links threads the client ralph runs has none of', () => {
    expect(promptLeansOnItsClient(AMP_PROMPT, dialectOf('claude'))).toBe(
      'it mentions Amp threads: ralph runs Claude Code, which has none',
    );
    expect(promptLeansOnItsClient(AMP_PROMPT, dialectOf('codex'))).toBe(
      'it mentions Amp threads: ralph runs Codex, which has none',
    );
  });

  it('says nothing when ralph runs Amp itself, or the prompt names no thread', () => {
    expect(promptLeansOnItsClient(AMP_PROMPT, dialectOf('amp'))).toBeUndefined();
    expect(promptLeansOnItsClient('Implement one story, then commit.', dialectOf('claude'))).toBeUndefined();
  });
});
