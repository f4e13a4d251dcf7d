import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configPathOf, envName, RUN_OPTIONS, type RunOptionKey } from '../../src/config/run-options.js';
import { exitCodeFor, type Ending, type Reason } from '../../src/loop/termination.js';

/** One ending of each reason: typed so that a new reason fails to compile here until it is documented. */
const ONE_OF_EACH: { [R in Reason]: Extract<Ending, { reason: R }> } = {
  complete: { reason: 'complete' },
  max_iterations: { reason: 'max_iterations' },
  blocked: { reason: 'blocked', message: '' },
  decide: { reason: 'decide', question: '' },
  stuck: { reason: 'stuck', stuckCount: 3 },
  max_runtime: { reason: 'max_runtime', limitMs: 1 },
  max_cost: { reason: 'max_cost', costUsd: 1, limitUsd: 1 },
  agent_failures: { reason: 'agent_failures', count: 3, lastError: [] },
  agent_auth: { reason: 'agent_auth', message: '', hint: 'the fix' },
  agent_setup: { reason: 'agent_setup', message: '', hint: 'the fix' },
  usage_limit: { reason: 'usage_limit', message: '', resetSource: 'backoff', why: 'stop_requested' },
  validation_failures: { reason: 'validation_failures', count: 3, last: '' },
  quality_gate_exhausted: { reason: 'quality_gate_exhausted', count: 3, event: '' },
  interrupted: { reason: 'interrupted', signal: 'SIGINT' },
  setup: { reason: 'setup', message: '' },
  max_resumes: { reason: 'max_resumes', message: '' },
  io_error: { reason: 'io_error', message: '' },
  internal_error: { reason: 'internal_error', message: '' },
};

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
/** The run reference, where every flag is documented. */
const runDoc = readFileSync(new URL('../../docs/run.md', import.meta.url), 'utf8');

describe('README and docs/run.md', () => {
  it.each(Object.keys(RUN_OPTIONS) as RunOptionKey[])('documents the flag, variable and config key of %s', (key) => {
    const def = RUN_OPTIONS[key];
    expect(runDoc).toContain(`\`${def.flag}\``);
    expect(runDoc).toContain(`\`${envName(def.flag)}\``);
    expect(runDoc).toContain(`\`${configPathOf(key).join('.')}\``);
  });

  it.each(Object.values(ONE_OF_EACH))("README's exit-code table has a row for $reason with its exit code", (ending) => {
    expect(readme).toContain(`| ${exitCodeFor(ending)} | \`${ending.reason}\` |`);
  });

  it('README fits on a screen or two (under 200 lines)', () => {
    expect(readme.split('\n').length).toBeLessThan(200);
  });

  it('starts with exactly the two set-up commands', () => {
    const firstBlock = readme.split('```')[1] ?? '';
    const commands = firstBlock.split('\n').filter((line) => line.trim() && !line.startsWith('sh'));
    expect(commands.map((line) => line.split('#')[0]?.trim())).toEqual(['npm install && npm run demo', 'npm test']);
  });
});
