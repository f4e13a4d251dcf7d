import { describe, expect, it } from 'vitest';
import { shownPath } from '../../../src/files/paths.js';

describe('shownPath: a path as a person standing in a folder would type it', () => {
  it.each([
    ['/repo', '/repo/ralph/logs/a.log', 'ralph/logs/a.log'],
    ['/repo/src', '/repo/ralph/tasks.json', '/repo/ralph/tasks.json'],
    ['/repo', '/nonexistent/prd.json', '/nonexistent/prd.json'],
    ['/repo', '/repo', '.'],
    ['/repo', '/repo/..notes/x', '..notes/x'],
  ])('from %s, %s is %s', (from, path, shown) => {
    expect(shownPath(from, path)).toBe(shown);
  });
});
