#!/usr/bin/env node
// Prints CHANGELOG.md's section for one version (its body, without the `## [x.y.z]` heading): the
// release workflow's notes. A version the changelog does not have is an error, never empty notes.
import { readFileSync } from 'node:fs';

/** The body of `## [version]` (Keep a Changelog headings), or undefined when there is none. */
export function changelogSection(changelog, version) {
  const lines = changelog.split('\n');
  const heading = (line) => line.startsWith('## ');
  const start = lines.findIndex((line) => heading(line) && line.slice(3).trim().startsWith(`[${version}]`));
  if (start < 0) return undefined;
  const end = lines.findIndex((line, index) => index > start && heading(line));
  const body = lines.slice(start + 1, end < 0 ? undefined : end);
  // Link definitions at the end of the file ([0.1.0]: https://…) belong to no section.
  const text = body
    .filter((line) => !/^\[[^\]]+\]:\s/.test(line))
    .join('\n')
    .trim();
  return text === '' ? undefined : text;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [version, file = 'CHANGELOG.md'] = process.argv.slice(2);
  if (!version) {
    console.error('usage: changelog-section.mjs <version> [CHANGELOG.md]');
    process.exit(64);
  }
  const section = changelogSection(readFileSync(file, 'utf8'), version.replace(/^v/, ''));
  if (section === undefined) {
    console.error(`${file}: no section "## [${version}]" with notes: add one before tagging (docs/releasing.md)`);
    process.exit(1);
  }
  console.log(section);
}
