import { describe, expect, it } from 'vitest';
import { claude } from '../../../src/agent/claude/dialect.js';
import { diagnoseFailure } from '../../../src/agent/diagnose-failure.js';
import type { OutputSummary } from '../../../src/agent/output/agent-output.js';

/** What an iteration's output said when bubblewrap refused to start it (its own words, captured here). */
const refused: OutputSummary = {
  signals: { complete: false, blocked: undefined, decide: undefined } as unknown as OutputSummary['signals'],
  expectsResult: true,
  toolCalls: 0,
  invalidLines: 0,
  errorText: ["bwrap: Can't find source path /home/me/.claude: No such file or directory"],
};

describe('an agent the box could not start', () => {
  it("is the iteration's agent failure, named as the box's, not the client's", () => {
    const failure = diagnoseFailure(refused, 1, 0, claude);
    expect(failure).toEqual({
      kind: 'error',
      lines: [
        "the box (bubblewrap) could not start the agent: Can't find source path /home/me/.claude: No such file or directory",
      ],
    });
  });

  it('leaves every other failure as the client said it', () => {
    const failure = diagnoseFailure({ ...refused, errorText: ['Error: something else'] }, 1, 0, claude);
    expect(failure).toEqual({ kind: 'error', lines: ['Error: something else'] });
  });
});
