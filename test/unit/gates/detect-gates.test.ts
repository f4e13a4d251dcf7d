import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { detectGates } from '../../../src/gates/detect-gates.js';
import { RalphError } from '../../../src/errors.js';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'ralph-detect-'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const packageJson = (scripts: Record<string, string>) =>
  writeFile(join(root, 'package.json'), JSON.stringify({ name: 'x', scripts }));

describe('detectGates', () => {
  it('finds nothing in an empty project', async () => {
    expect(await detectGates(root)).toEqual([]);
  });

  it('turns package.json scripts into gates that run after the build', async () => {
    await packageJson({ test: 'vitest run', lint: 'eslint .', build: 'tsc', typecheck: 'tsc --noEmit', dev: 'vite' });
    expect(await detectGates(root)).toEqual([
      { name: 'build', command: 'npm run build' },
      { name: 'typecheck', command: 'npm run typecheck', after: 'build' },
      { name: 'lint', command: 'npm run lint', after: 'build' },
      { name: 'tests', command: 'npm test', after: 'build' },
    ]);
  });

  it('gives no after without a build script, and skips npm init’s failing test placeholder', async () => {
    await packageJson({ lint: 'eslint .', test: 'echo "Error: no test specified" && exit 1' });
    expect(await detectGates(root)).toEqual([{ name: 'lint', command: 'npm run lint' }]);
  });

  it.each([
    ['Cargo.toml', 'cargo test'],
    ['go.mod', 'go test ./...'],
    ['pyproject.toml', 'pytest'],
    ['pytest.ini', 'pytest'],
  ])('runs the tests of a project with %s', async (file, command) => {
    await writeFile(join(root, file), '');
    expect(await detectGates(root)).toEqual([{ name: 'tests', command }]);
  });

  it('names a second test command after its tool', async () => {
    await packageJson({ test: 'jest' });
    await writeFile(join(root, 'Cargo.toml'), '');
    expect(await detectGates(root)).toEqual([
      { name: 'tests', command: 'npm test' },
      { name: 'tests-cargo', command: 'cargo test' },
    ]);
  });

  it('reports a package.json that is not JSON as a set-up error naming the file', async () => {
    await writeFile(join(root, 'package.json'), '{ "scripts": ');
    const error = await detectGates(root).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(RalphError);
    expect((error as RalphError).kind).toBe('setup');
    expect((error as RalphError).message).toContain(join(root, 'package.json'));
  });
});
