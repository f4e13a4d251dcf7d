// @ts-check
/**
 * `npm run mutation`: mutation testing of the files that decide how a run goes, with the unit
 * tests alone. Run it before merging a change to one of these files (docs/development.md).
 * @type {import('@stryker-mutator/api/core').PartialStrykerOptions}
 */
export default {
  // src/loop/ holds the judge, the task-list rules (transitions.ts, also the Stop hook's), progress
  // and the usage-limit ruling; the agent files read the signals and limits the loop decides on.
  mutate: [
    'src/loop/**/*.ts',
    'src/domain/tasks.ts',
    'src/agent/promise-tags.ts',
    'src/agent/repetition.ts',
    'src/agent/usage-limit.ts',
    'src/agent/limit-reset.ts',
    'src/files/active-lock.ts',
    // The guards on numbers the agent reports and on counts keyed by names it chooses.
    'src/domain/numbers.ts',
    'src/domain/keyed-counts.ts',
  ],
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.unit.config.ts' },
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.stryker.json',
  // Only what the unit tests need is copied into Stryker's sandbox.
  ignorePatterns: ['dist', 'bench', 'test/e2e', 'reports', 'coverage'],
  // Unchanged mutants keep their last result: a rerun after a small change takes seconds.
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  reporters: ['html', 'clear-text', 'progress'],
  // The survivors and the score table; not every test's name.
  clearTextReporter: { logTests: false },
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  thresholds: { high: 90, low: 85, break: 85 },
  // Equivalent mutants left alive on purpose (no behaviour can tell them apart):
  // - promise-tags.ts the `$` of /^(BLOCKED|DECIDE):([\s\S]*)$/: the greedy `[\s\S]*` already
  //   reaches the end.
  // - promise-tags.ts the shortcuts in push: skipping a piece without "<" (`if (false)`, and
  //   `indexOf("")`, never -1) and not copying it when nothing is carried (`false ? bytes : concat`):
  //   scanned in full, such a piece finds nothing and carries nothing. They save time (947f15c).
  // - promise-tags.ts `next <= limit` in lastBefore: no opener starts where a closer, or the end, does.
  // - promise-tags.ts unfinishedTag's search for a cut opener two bytes wider (`OPEN.length + 1`): a
  //   "<" further back is followed by 9 bytes or more, a whole opener (found above) or a closer.
  // - active-lock.ts `?? ''` as `?? "Stryker was here!"` (after taking over, and reading the lock
  //   moved aside): a missing file and text that is not JSON both parse as no lock.
  // - active-lock.ts currentOwner's `?? 'unknown'` as `?? ""`: reached only where no start time can
  //   be read, and then any text that processStartTime never returns makes the lock stale alike.
  // - time.ts the `$` of /\.\d{3}Z$/: toISOString() holds one `.sssZ`, always at its end.
  // - judge.ts `findings.rejectedComplete ? { rejectedComplete } : {}` as `true ? …`: an
  //   undefined rejectedComplete and a missing one read the same everywhere.
  // - run-loop.ts the default `unconfirmed = []` as `["Stryker was here"]`: startingUnconfirmed
  //   keeps only ids of stories that are approved, and no story has that id.
  // - run-report.ts `detail === undefined ? {} : { detail }` as `{ detail }`, and the same of
  //   `resetsAt`: an undefined field is left out of last-run.json and the outputs alike.
  // - limit-reset.ts `seconds?` as `seconds` and `secs?` as `secs` in RETRY_AFTER: `1 second` and
  //   `30 sec` then match no unit, and no unit is seconds too.
  // - limit-reset.ts monthOf's `name ?? ''`: the month group is not optional, so a match always
  //   holds a name (no test reaches the fallback; TypeScript wants it).
  // - usage-limit.ts detectServerBusy's `retryAt === undefined ? {} : { retryAt }` as `{ retryAt }`:
  //   a retryAt that is undefined and none read the same everywhere (as judge.ts's above).
  // - termination.ts gatesExhausted's `?? ''` (split always yields a first line) and the `^` of
  //   /^## Completion Blocked: / (a blocking event has that heading only at its start).
  // One checker and one test runner; raise it with --concurrency on a machine of your own.
  concurrency: 2,
};
