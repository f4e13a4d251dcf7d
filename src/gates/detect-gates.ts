import { join } from 'node:path';
import { RalphError } from '../errors.js';
import { parseJson } from '../files/json-text.js';
import { pathExists } from '../files/missing-file.js';
import { readOwnFile } from '../files/own-file.js';

/** A gate as `ralph init` writes it into the config. */
export interface DetectedGate {
  name: string;
  command: string;
  after?: string;
}

/** package.json scripts that become gates, in the order they run, with the gate each becomes. */
const SCRIPT_GATES = [
  { script: 'build', name: 'build' },
  { script: 'typecheck', name: 'typecheck' },
  { script: 'lint', name: 'lint' },
  { script: 'test', name: 'tests' },
] as const;

/** Other ecosystems' test commands, each found by the file that marks the project. */
const TEST_MARKERS = [
  { files: ['Cargo.toml'], command: 'cargo test', suffix: 'cargo' },
  { files: ['go.mod'], command: 'go test ./...', suffix: 'go' },
  { files: ['pyproject.toml', 'pytest.ini'], command: 'pytest', suffix: 'pytest' },
] as const;

/**
 * The gates a project's own files suggest, for `ralph init`: its package.json scripts `build`,
 * `typecheck`, `lint` and `test` (the last three after `build` when there is one), then
 * `cargo test`, `go test ./...` or `pytest`. A second test command is named `tests-<tool>`.
 */
export async function detectGates(root: string): Promise<DetectedGate[]> {
  const gates: DetectedGate[] = [];
  const scripts = await packageScripts(root);
  if (scripts) {
    const hasBuild = scripts.has('build');
    for (const { script, name } of SCRIPT_GATES) {
      if (!scripts.has(script)) continue;
      const command = script === 'test' ? 'npm test' : `npm run ${script}`;
      gates.push({ name, command, ...(name !== 'build' && hasBuild ? { after: 'build' } : {}) });
    }
  }
  for (const marker of TEST_MARKERS) {
    if ((await firstExisting(root, marker.files)) === undefined) continue;
    const taken = gates.some((gate) => gate.name === 'tests');
    gates.push({ name: taken ? `tests-${marker.suffix}` : 'tests', command: marker.command });
  }
  return gates;
}

/** The names of the usable scripts in package.json; undefined without one. */
async function packageScripts(root: string): Promise<Set<string> | undefined> {
  const path = join(root, 'package.json');
  // A FIFO the agent left there is refused, never waited on.
  const text = await readOwnFile(path);
  if (text === undefined) return undefined;
  const parsed = parseJson(text);
  if (!parsed.ok)
    throw new RalphError('setup', `${path} is not valid JSON (${parsed.error})`, 'fix it, then run ralph init again');
  const scripts = (parsed.value as { scripts?: unknown } | null)?.scripts;
  if (typeof scripts !== 'object' || scripts === null || Array.isArray(scripts)) return new Set();
  return new Set(
    Object.entries(scripts)
      // npm init's placeholder test script always fails: it is no gate.
      .filter(
        ([, command]) => typeof command === 'string' && command.trim() !== '' && !command.includes('no test specified'),
      )
      .map(([name]) => name),
  );
}

/** The first of the files that exists in root. */
async function firstExisting(root: string, files: readonly string[]): Promise<string | undefined> {
  for (const file of files) {
    if (await pathExists(join(root, file))) return file;
  }
  return undefined;
}
