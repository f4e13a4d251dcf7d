import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readReviewPolicy } from '../../../src/config/review-policy.js';
import { ralphPaths } from '../../../src/files/paths.js';
import { statusReviewPolicy } from '../../../src/status/status-policy.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function project(config: string | undefined) {
  const root = mkdtempSync(join(tmpdir(), 'ralph-status-policy-'));
  made.push(root);
  mkdirSync(join(root, 'ralph'));
  if (config !== undefined) writeFileSync(join(root, 'ralph', 'config.json'), config);
  return ralphPaths(root);
}

const CONFIGS = [
  undefined,
  '{}',
  '{"skipReview": true}',
  '{"skipReview": false}',
  '{"skip\\u0052eview": true}',
  '{"maxIterations": "ten"}',
  '{"maxIterations": "ten", "skipReview": true}',
  'not json',
];
const ENVS: NodeJS.ProcessEnv[] = [
  {},
  { RALPH_SKIP_REVIEW: 'true' },
  { RALPH_SKIP_REVIEW: 'maybe' },
  { RALPH_MAX_ITERATIONS: 'ten' },
  { RALPH_MAX_ITERATIONS: 'ten', RALPH_SKIP_REVIEW: 'true' },
];

describe('statusReviewPolicy', () => {
  it.each(CONFIGS.flatMap((config) => ENVS.map((env) => [config, env] as const)))(
    'config %s with %o reads as the full configuration does',
    async (config, env) => {
      const paths = project(config);
      const full = await readReviewPolicy(paths.config, 'ralph/config.json', env).catch(() => ({ review: true }));
      expect(await statusReviewPolicy(paths, env)).toEqual(full);
    },
  );

  it('turns the review cycle off where the configuration says so', async () => {
    expect(await statusReviewPolicy(project('{"skipReview": true}'), {})).toEqual({ review: false });
    expect(await statusReviewPolicy(project(undefined), { RALPH_SKIP_REVIEW: 'true' })).toEqual({ review: false });
  });
});
