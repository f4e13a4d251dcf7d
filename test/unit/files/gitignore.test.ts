import { describe, expect, it } from 'vitest';
import { mergeGitignore } from '../../../src/files/gitignore.js';
import { LOOP_OWNED_PATHS } from '../../../src/files/paths.js';

const HEADING = "# ralph: the loop's own files (logs, signals, run lock)";

describe('mergeGitignore', () => {
  it('creates the file text when there is none', () => {
    expect(mergeGitignore(undefined, ['ralph/logs/', 'ralph/blocked.txt'])).toEqual({
      text: `${HEADING}\nralph/logs/\nralph/blocked.txt\n`,
      added: ['ralph/logs/', 'ralph/blocked.txt'],
    });
  });

  it("keeps the user's text byte for byte and appends below a blank line", () => {
    const mine = 'node_modules/\n# secrets\n.env\n';
    const merged = mergeGitignore(mine, ['ralph/logs/']);
    expect(merged.text).toBe(`${mine}\n${HEADING}\nralph/logs/\n`);
  });

  it('adds a newline first when the file does not end with one', () => {
    expect(mergeGitignore('dist', ['ralph/logs/']).text).toBe(`dist\n\n${HEADING}\nralph/logs/\n`);
  });

  it('treats /ralph/logs/, ralph/logs and ralph/logs/ as the same entry', () => {
    for (const spelling of ['/ralph/logs/', 'ralph/logs', '  ralph/logs/  ', '/ralph/logs']) {
      expect(mergeGitignore(`${spelling}\n`, ['ralph/logs/'])).toEqual({ text: `${spelling}\n`, added: [] });
    }
  });

  it('adds only the missing entries and is idempotent', () => {
    const first = mergeGitignore('ralph/decide.txt\r\n', LOOP_OWNED_PATHS);
    expect(first.added).toEqual(LOOP_OWNED_PATHS.filter((path) => path !== 'ralph/decide.txt'));
    expect(mergeGitignore(first.text, LOOP_OWNED_PATHS)).toEqual({ text: first.text, added: [] });
  });

  it('does not take a commented-out entry for the entry', () => {
    expect(mergeGitignore('# ralph/logs/\n', ['ralph/logs/']).added).toEqual(['ralph/logs/']);
  });

  it('never adds the same line twice from its own list', () => {
    expect(mergeGitignore('', ['a/', 'a', '/a/']).added).toEqual(['a/']);
  });
});
