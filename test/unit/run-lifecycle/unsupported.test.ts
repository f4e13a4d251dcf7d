import { describe, expect, it } from 'vitest';
import { dialectOf } from '../../../src/agent/dialects.js';
import { renderUnsupported, unsupportedBy } from '../../../src/run-lifecycle/unsupported.js';

describe('what the chosen kind does not support, as the dry run lists it', () => {
  it('is nothing for Claude Code, which has the cost, the sandbox and the Stop hook', () => {
    expect(unsupportedBy(dialectOf('claude'))).toEqual([]);
    expect(renderUnsupported(dialectOf('claude'))).toEqual([]);
  });

  it('names each missing feature with what it means', () => {
    expect(unsupportedBy(dialectOf('codex'))).toEqual([
      '--max-cost (it reports tokens and turns, not what a call cost)',
      "--sandbox (ralph's Docker sandbox has no template for it)",
      'the Stop hook (no `ralph hook stop` checks each stop of the agent)',
    ]);
    // OpenCode reports cost: only the sandbox and the hook are missing.
    expect(renderUnsupported(dialectOf('opencode'))).toEqual([
      '',
      'Not supported by OpenCode:',
      "  --sandbox (ralph's Docker sandbox has no template for it)",
      '  the Stop hook (no `ralph hook stop` checks each stop of the agent)',
    ]);
  });
});
