import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractDetails } from '../../../src/gates/extract-details.js';

const FIXTURES = resolve(import.meta.dirname, '../../fixtures/gates');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8').split('\n');

describe('extractDetails on real failing output', () => {
  it.each([
    [
      'vitest',
      'vitest.txt',
      [
        "test/broken.test.ts: Error: Cannot find module '../src/missing.js' imported from /home/dev/shop-api/test/broken.test.ts",
        'test/api.test.ts > users > creates a user: AssertionError: expected 500 to be 201',
        "test/api.test.ts > users > returns the new id: AssertionError: expected { error: 'boom' } to deeply equal { id: 1 }",
        "test/math.test.ts > throws on bad input: TypeError: Cannot read properties of undefined (reading 'id')",
      ],
    ],
    [
      'jest',
      'jest.txt',
      [
        'test/api.test.js > users > creates a user: expected 201, received 500',
        'test/api.test.js > users > returns the new id: expect(received).toEqual(expected)',
        "test/math.test.js > throws on bad input: TypeError: Cannot read properties of undefined (reading 'id')",
        "test/broken.test.js: Cannot find module '../src/missing' from 'test/broken.test.js'",
      ],
    ],
    [
      'node --test (TAP)',
      'node-test-tap.txt',
      [
        '/home/dev/shop-api/test/users.test.js > users > creates a user: AssertionError: Expected values to be strictly equal: 500 !== 201',
        "/home/dev/shop-api/test/users.test.js > users > rejects an empty name: TypeError: Cannot read properties of undefined (reading 'id')",
        '/home/dev/shop-api/test/users.test.js > parses the config: AssertionError: Expected values to be strictly deep-equal:',
      ],
    ],
    [
      'node --test (spec reporter)',
      'node-test-spec.txt',
      [
        'test/users.test.js > creates a user: AssertionError: Expected values to be strictly equal: 500 !== 201',
        "test/users.test.js > rejects an empty name: TypeError: Cannot read properties of undefined (reading 'id')",
        'test/users.test.js > parses the config: AssertionError: Expected values to be strictly deep-equal:',
      ],
    ],
    [
      'pytest',
      'pytest.txt',
      [
        'tests/test_users.py::test_create_user: assert 500 == 201',
        "tests/test_users.py::TestValidation::test_rejects_empty_name: Failed: DID NOT RAISE <class 'ValueError'>",
        "tests/test_users.py::TestValidation::test_parses_body: KeyError: 'id'",
      ],
    ],
    [
      'pytest collection error',
      'pytest-collection-error.txt',
      ["tests/test_import.py: ModuleNotFoundError: No module named 'app'"],
    ],
    [
      'go test',
      'go-test.txt',
      [
        'TestCreateUser: users_test.go:18: CreateUser("a") status = 500, want 201',
        'TestParseName/empty_input: users_test.go:41: ParseName("") error = <nil>, want an error',
        'TestParseName/trailing_space: users_test.go:41: ParseName("ann ") = "ann ", want "ann"',
        'TestHandler: panic: runtime error: invalid memory address or nil pointer dereference [recovered]',
        'store/store.go:14:2: undefined: sql.Conn2',
        'store/store_test.go:9:15: cannot use "x" (untyped string constant) as int value in argument to Open',
      ],
    ],
    ['go test -v', 'go-test-verbose.txt', ['TestCreateUser: users_test.go:18: CreateUser("a") status = 500, want 201']],
    [
      'cargo test',
      'cargo-test.txt',
      [
        'tests::creates_user: assertion `left == right` failed (left: 500, right: 201) at src/lib.rs:20:9',
        'tests::parses_number: called `Result::unwrap()` on an `Err` value: "cannot parse integer from empty string" at src/lib.rs:25:27',
      ],
    ],
    [
      'tsc',
      'tsc.txt',
      [
        "src/api.ts(2,41): error TS2345: Argument of type 'number' is not assignable to parameter of type 'string'.",
        "src/users.ts(3,9): error TS2322: Type 'string' is not assignable to type 'number'.",
        "src/users.ts(4,22): error TS2353: Object literal may only specify known properties, and 'email' does not exist in type 'User'.",
      ],
    ],
    [
      'eslint (stylish)',
      'eslint.txt',
      [
        "/home/dev/shop-api/src/api.ts:3:10  @typescript-eslint/no-unused-vars  'validate' is defined but never used",
        '/home/dev/shop-api/src/api.ts:22:18  @typescript-eslint/no-explicit-any  Unexpected any. Specify a different type',
        "/home/dev/shop-api/src/users.ts:7:1  Parsing error: ';' expected",
      ],
    ],
    [
      'biome',
      'biome.txt',
      [
        'src/api.ts:3:10  lint/correctness/noUnusedVariables  This variable is unused.',
        'src/api.ts:22:29  lint/suspicious/noExplicitAny  Unexpected any. Specify a different type.',
        'src/users.ts  format  Formatter would have printed the following content',
      ],
    ],
    [
      'rustc via cargo build',
      'rustc.txt',
      [
        'src/lib.rs:2:21: error[E0308]: mismatched types',
        'src/lib.rs:3:12: error[E0425]: cannot find function `missing_helper` in this scope',
      ],
    ],
    [
      'gcc via make',
      'gcc.txt',
      ['main.c:4:26: error: expected ‘;’ before ‘return’', 'store.c:1:10: error: store.h: No such file or directory'],
    ],
  ])('reads %s failures', (_tool, file, expected) => {
    expect(extractDetails(fixture(file))).toEqual(expected);
  });

  it('reads tsc --pretty output, colours and all, as the plain form', () => {
    expect(extractDetails(fixture('tsc-pretty.txt'))).toEqual(extractDetails(fixture('tsc.txt')));
  });

  it('ignores terminal colour codes', () => {
    expect(readFileSync(join(FIXTURES, 'vitest-color.txt'), 'utf8')).toContain('\x1b[');
    expect(extractDetails(fixture('vitest-color.txt'))).toEqual(extractDetails(fixture('vitest.txt')));
  });

  it('reads Windows line endings', () => {
    const crlf = readFileSync(join(FIXTURES, 'pytest.txt'), 'utf8').replaceAll('\n', '\r\n').split('\n');
    expect(extractDetails(crlf)).toEqual(extractDetails(fixture('pytest.txt')));
  });
});

describe('extractDetails choosing what to report', () => {
  it('recognises each tool by its output, keeping output order when one gate runs several', () => {
    const details = extractDetails([...fixture('tsc.txt'), ...fixture('vitest.txt')]);
    expect(details[0]).toMatch(/^src\/api\.ts\(2,41\): error TS2345/);
    expect(details[3]).toMatch(/^test\/broken\.test\.ts: Error/);
    expect(details).toHaveLength(7);
  });

  it('prefers test failures to the compiler-style summary lines around them', () => {
    // cargo ends with `error: test failed, to rerun pass --lib`, which says nothing new.
    expect(
      extractDetails([...fixture('cargo-test.txt'), 'error: test failed, to rerun pass `--lib`']).every((d) =>
        d.startsWith('tests::'),
      ),
    ).toBe(true);
  });

  it('falls back to the last 20 non-empty lines of output it does not know', () => {
    // Steps 1 to 25, each followed by an empty line.
    const lines = Array.from({ length: 25 }, (_, index) => [`step ${index + 1} done   `, '']).flat();
    expect(extractDetails(lines)).toEqual(Array.from({ length: 20 }, (_, index) => `step ${index + 6} done`));
  });

  it('keeps at most 20 details', () => {
    const lines = Array.from(
      { length: 45 },
      (_, index) => `src/f${index}.ts(1,1): error TS2304: Cannot find name 'x${index}'.`,
    );
    const details = extractDetails(lines);
    expect(details).toHaveLength(20);
    expect(details[19]).toBe("src/f19.ts(1,1): error TS2304: Cannot find name 'x19'.");
  });

  it('reports each failure once when a tool repeats it in a summary', () => {
    const jest = fixture('jest.txt');
    const summary = [
      'Summary of all failing tests',
      ...jest.slice(jest.indexOf(' FAIL  test/api.test.js'), jest.indexOf(' FAIL  test/math.test.js')),
    ];
    expect(extractDetails([...jest, ...summary])).toEqual(extractDetails(jest));
  });

  it('cuts very long details', () => {
    const [detail] = extractDetails([`src/a.ts(1,1): error TS2322: ${'x'.repeat(1000)}`]);
    expect(detail?.length).toBeLessThanOrEqual(300);
    expect(detail?.endsWith('…')).toBe(true);
  });

  it('returns nothing for no output', () => {
    expect(extractDetails([])).toEqual([]);
  });
});
