import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');
const pages = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
].filter((page) => existsSync(join(ROOT, page)));

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsIn(text: string): Set<string> {
  const withoutFences = text.replace(/```[\s\S]*?```/g, '');
  return new Set([...withoutFences.matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1]!)));
}

describe('links in the README and docs/', () => {
  const links = pages.flatMap((page) => {
    const text = readFileSync(join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '');
    return [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => ({ page, target: match[1]! }));
  });

  it('finds links to check', () => {
    expect(links.length).toBeGreaterThan(10);
  });

  it.each(links.filter((link) => !/^[a-z]+:/.test(link.target)))('$page → $target resolves', ({ page, target }) => {
    const [file, anchor] = target.split('#') as [string, string | undefined];
    const path = file ? resolve(dirname(join(ROOT, page)), file) : join(ROOT, page);
    expect(existsSync(path), `${path} exists`).toBe(true);
    if (anchor) expect([...anchorsIn(readFileSync(path, 'utf8'))]).toContain(anchor);
  });
});
