#!/usr/bin/env node
// After `npm run test:agents` in CI (.ci/test-agents): one line per real client that was skipped,
// the count of them, and one line per failed case naming the client, its version (in the suite's
// titles) and what changed (the assertion's first line). Usage:
//   node scripts/real-clients-summary.mjs <the run's output> <vitest's JSON report>
import { existsSync, readFileSync } from 'node:fs';

const [log, report] = process.argv.slice(2);
if (!log || !report) {
  console.error('usage: node scripts/real-clients-summary.mjs <test:agents output> <vitest JSON report>');
  process.exit(64);
}

// [real-clients] SKIP <kind> (<spec>): <why>, once per kind however many files skipped it.
const skips = new Map();
for (const line of readFileSync(log, 'utf8').split('\n')) {
  const skip = /^\[real-clients\] SKIP (\S+) (.*)$/.exec(line.trim());
  if (skip && !skips.has(skip[1])) skips.set(skip[1], skip[2]);
}
for (const [kind, why] of skips) console.log(`skipped: ${kind} ${why}`);
console.log(`real clients skipped: ${skips.size}`);

if (!existsSync(report)) {
  console.log(`no test report at ${report}: the suite did not run to its end`);
  process.exit(0);
}
const { testResults = [] } = JSON.parse(readFileSync(report, 'utf8'));
let failed = 0;
for (const file of testResults) {
  for (const test of file.assertionResults ?? []) {
    if (test.status !== 'failed') continue;
    failed += 1;
    const what = (test.failureMessages?.[0] ?? '').split('\n').find((line) => line.trim()) ?? 'no message';
    // The describe titles name the client and its version: "the real Codex … (codex-cli 0.171.0, @openai/codex@…)".
    console.log(`FAILED: ${[...(test.ancestorTitles ?? []), test.title].join(' > ')}: ${what.trim().slice(0, 400)}`);
  }
}
if (failed === 0 && testResults.some((file) => file.status === 'failed')) {
  for (const file of testResults.filter((result) => result.status === 'failed'))
    console.log(`FAILED: ${file.name}: ${(file.message ?? '').split('\n')[0]}`);
}
