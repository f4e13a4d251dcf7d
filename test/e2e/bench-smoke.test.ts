import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../helpers/e2e.js';

// The benchmark is not a test: this only proves `npm run bench` still runs end to end.
// No timing is asserted anywhere.
describe('bench/run.mjs --quick', () => {
  let dir: string | undefined;
  afterEach(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it(
    'completes, prints the results table and writes it to --out',
    async () => {
      dir = await mkdtemp(join(tmpdir(), 'ralph-bench-smoke-'));
      const out = join(dir, 'results.md');
      const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
        (resolve) => {
          const child = spawn(process.execPath, ['bench/run.mjs', '--quick', '--out', out], {
            cwd: PACKAGE_ROOT,
            stdio: ['ignore', 'pipe', 'pipe'],
          });
          let stdout = '';
          let stderr = '';
          child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
          child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
          child.on('close', (exitCode) => resolve({ code: exitCode, stdout, stderr }));
        },
      );

      expect(code, stderr).toBe(0);
      expect(stdout).toMatch(/^scenario +metric +ralph +peer +peer value +ralph \/ peer$/m);
      for (const scenario of [
        '1 loop overhead',
        '2 text output',
        '3 stream-json',
        '4 scaling',
        '5 start-up',
        '6 busy machine',
        '7 report',
        '10 iteration writes',
      ]) {
        expect(stdout).toContain(scenario);
      }
      expect(stdout).toContain('`ralph --version` ≤ 150 ms');
      const results = await readFile(out, 'utf8');
      expect(results).toContain('| scenario | metric | ralph | peer | peer value | ralph / peer |');
      expect(results).toContain('**Machine:**');
      // Only that it finishes: a busy machine may take minutes over its ten seconds. The limit is a
      // guard against a hang, not a measure: its scenarios time processes against each other, and a
      // loaded machine (two CPU hogs beside the suite on two cores) stretches each of them several
      // times over, so it is generous.
    },
    20 * 60_000,
  );
});
