import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** The files `npm publish` would ship, by npm's own rules (`files`, .npmignore, what npm always adds). */
function packedFiles(): string[] {
  const output = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { encoding: 'utf8' });
  const [pack] = JSON.parse(output) as [{ files: { path: string }[] }];
  return pack.files.map((file) => file.path);
}

describe('the npm package', () => {
  const files = packedFiles();

  it('ships every page of docs/ that README and ralph itself point to', () => {
    for (const page of readdirSync('docs').filter((name) => name.endsWith('.md')))
      expect(files).toContain(`docs/${page}`);
    const named = new Set(
      [...readFileSync('README.md', 'utf8').matchAll(/\]\((docs\/[\w-]+\.md)/g)].map((match) => match[1]!),
    );
    expect(named.size).toBeGreaterThan(0);
    for (const page of named) expect(files).toContain(page);
  });

  it('ships the command, its build, its templates and its README, and no tests or sources', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'bin/ralph.cjs',
        'bin/ralph.js',
        'dist/ralph.cjs',
        'dist/compile-cache.cjs',
        'dist/cli/main.js',
        'templates/prompt.md',
        'README.md',
        'CHANGELOG.md',
      ]),
    );
    expect(files.filter((path) => /^(test|src|bench)\//.test(path))).toEqual([]);
    // The code this machine's Node compiled stays here: another Node would reject it anyway.
    expect(files.filter((path) => path.startsWith('dist/compile-cache/'))).toEqual([]);
  });
});
