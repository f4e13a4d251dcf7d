import { describe, expect, it } from 'vitest';
import { extractDetails } from '../../../src/gates/extract-details.js';

const details = (text: string) => extractDetails(text.split('\n'));

describe('detail parsers on less common shapes', () => {
  it('eslint: reports warnings when they are all there is (--max-warnings 0)', () => {
    const output = [
      '',
      '/repo/src/a.ts',
      '  14:5  warning  Unexpected console statement  no-console',
      '',
      '✖ 1 problem (0 errors, 1 warning)',
      '',
    ];
    expect(extractDetails(output)).toEqual(['/repo/src/a.ts:14:5  no-console  Unexpected console statement']);
  });

  it('eslint: splits the rule off by the last run of spaces, a long one in the message too', () => {
    const output = [
      '/repo/src/a.ts',
      `  1:1  error  x${' '.repeat(4000)}!`,
      '  2:3  error  Missing semicolon  @typescript-eslint/semi   ',
      '  3:1  error  one space before it counts as the message semi',
      '  4:1  error  no-rule-alone',
    ];
    const [long, ...rest] = extractDetails(output);
    expect(long).toMatch(/^\/repo\/src\/a\.ts:1:1  x {200}/);
    expect(rest).toEqual([
      '/repo/src/a.ts:2:3  @typescript-eslint/semi  Missing semicolon',
      '/repo/src/a.ts:3:1  one space before it counts as the message semi',
      '/repo/src/a.ts:4:1  no-rule-alone',
    ]);
  });

  it('pytest: reads the failure sections when the short summary is turned off', () => {
    const output = `=================================== FAILURES ===================================
_______________________________ test_total _______________________________

    def test_total():
>       assert total([1, 2]) == 4
E       assert 3 == 4
E        +  where 3 = total([1, 2])

tests/test_cart.py:5: AssertionError
============================== 1 failed in 0.01s ===============================`;
    expect(details(output)).toEqual(['test_total: assert 3 == 4']);
  });

  it('pytest: falls back to the summary message when the section had no E line', () => {
    expect(details('FAILED tests/test_a.py::test_b - RuntimeError: boom')).toEqual([
      'tests/test_a.py::test_b: RuntimeError: boom',
    ]);
  });

  it('cargo test: reads the panic format of Rust before 1.73', () => {
    const output = `---- tests::adds stdout ----
thread 'tests::adds' panicked at 'assertion failed: \`(left == right)\`
  left: \`3\`,
 right: \`4\`', src/lib.rs:9:9

failures:
    tests::adds`;
    expect(details(output)).toEqual([
      'tests::adds: assertion failed: `(left == right)` (left: `3`, right: `4`) at src/lib.rs:9:9',
    ]);
  });

  it('vitest: gives each of several tests that share one error that error', () => {
    const output = ' FAIL  a.test.ts > x > one\n FAIL  a.test.ts > x > two\nError: database is down\n ❯ a.test.ts:3:1';
    expect(details(output)).toEqual([
      'a.test.ts > x > one: Error: database is down',
      'a.test.ts > x > two: Error: database is down',
    ]);
  });

  it('jest: turns Expected/Received lines of any matcher into one phrase', () => {
    const output = ` FAIL  test/list.test.js
  ● list › has three items

    expect(received).toHaveLength(expected)

    Expected length: 3
    Received length: 2
    Received array:  [1, 2]

      at Object.toHaveLength (test/list.test.js:4:16)`;
    expect(details(output)).toEqual([
      'test/list.test.js > list > has three items: expected length 3, received length 2',
    ]);
  });

  it('node --test: keeps the error name when an expected object has a name field', () => {
    const output = `not ok 1 - reads the user
  ---
  duration_ms: 1.2
  location: '/repo/test/user.test.js:3:1'
  failureType: 'testCodeFailure'
  error: 'Expected values to be strictly deep-equal'
  code: 'ERR_ASSERTION'
  name: 'AssertionError'
  expected:
    name: 'Ann'
  actual:
    name: 'Bob'
  ...`;
    expect(details(output)).toEqual([
      '/repo/test/user.test.js > reads the user: AssertionError: Expected values to be strictly deep-equal',
    ]);
  });

  it('node --test: names a test file that failed to load once', () => {
    const output = `# Subtest: /repo/test/broken.test.js
not ok 1 - /repo/test/broken.test.js
  ---
  duration_ms: 40.1
  location: '/repo/test/broken.test.js:1:1'
  failureType: 'testCodeFailure'
  exitCode: 1
  signal: ~
  error: 'test failed'
  code: 'ERR_TEST_FAILURE'
  ...`;
    expect(details(output)).toEqual(['/repo/test/broken.test.js: test failed']);
  });

  it('compilers: keeps an error without a location, drops the summaries after it', () => {
    const output =
      'error: linking with `cc` failed: exit status: 1\n  |\n  = note: ld: cannot find -lssl\n\nerror: could not compile `shop` (bin "shop") due to 1 previous error';
    expect(details(output)).toEqual(['error: linking with `cc` failed: exit status: 1']);
  });

  it('tsc: reads errors without a location', () => {
    expect(details("error TS5083: Cannot read file '/repo/tsconfig.base.json'.")).toEqual([
      "error TS5083: Cannot read file '/repo/tsconfig.base.json'.",
    ]);
  });
});
