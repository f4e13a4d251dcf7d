import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { renderLists } from '../../../src/commands/lists.js';
import type { ListOverview } from '../../../src/lists/list-overview.js';
import { prefixedScreen } from '../../../src/parallel/supervisor-screen.js';
import { oneLine } from '../../../src/text/neutralise.js';

// A branchName, a story title, a BLOCKED reason: the agent writes them. Printed within a line of
// ralph's, a line break in one would start a line of the agent's choosing: `::error::…` where a CI
// log reads workflow commands, or a line that passes for ralph's own.
const PLANTED = 'ralph/x\n::error::planted\r\n::warning::again\u2028::notice::and\u2029::debug::more';

/** The lines of `text` that begin with a workflow command. */
const commands = (text: string) => text.split('\n').filter((line) => line.trimStart().startsWith('::'));

describe('oneLine', () => {
  it('makes every line break a space and shows every other control, as neutralise does', () => {
    expect(oneLine(PLANTED)).toBe('ralph/x ::error::planted ::warning::again ::notice::and ::debug::more');
    expect(oneLine('a\u001b[2Jb\u0007c\rd\te\u001b[31m')).toBe('a␛[2Jb␇c␍d\te');
  });
});

describe('ralph lists', () => {
  const list = (fields: Partial<ListOverview>): ListOverview => ({
    name: 'api',
    file: 'ralph/lists/api.json',
    branch: 'ralph/api',
    dependsOn: [],
    worktree: null,
    stories: { complete: 1, total: 2 },
    storiesFrom: 'file',
    problem: null,
    broken: false,
    running: null,
    lastEnding: null,
    ...fields,
  });

  it('prints a branchName holding line breaks on its row: no line of it starts a workflow command', () => {
    const text = renderLists([list({ branch: PLANTED }), list({ name: 'ui', dependsOn: [PLANTED] })]);
    expect(commands(text)).toEqual([]);
    // The header, two rows, one "starts after" line.
    expect(text.trimEnd().split('\n')).toHaveLength(4);
    expect(text).toContain('ralph/x ::error::planted ::warning::again');
  });
});

describe('the parallel supervisor', () => {
  it('prints a line quoting a branch name, and a loop’s words, each on one line', () => {
    const out = new PassThrough();
    let text = '';
    out.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const screen = prefixedScreen(out, ['api'], false);
    screen.line(`api (${PLANTED}): complete (exit 0)`);
    screen.say('api', `ended: ${PLANTED}`);
    expect(commands(text)).toEqual([]);
    expect(text.trimEnd().split('\n')).toHaveLength(2);
  });
});
