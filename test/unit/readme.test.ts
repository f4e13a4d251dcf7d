import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configPathOf, envName, RUN_OPTIONS, type RunOptionKey } from '../../src/config/run-options.js';

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

  it('README fits on a screen or two (under 200 lines)', () => {
    expect(readme.split('\n').length).toBeLessThan(200);
  });

  it('starts with exactly the two set-up commands', () => {
    const firstBlock = readme.split('```')[1] ?? '';
    const commands = firstBlock.split('\n').filter((line) => line.trim() && !line.startsWith('sh'));
    expect(commands.map((line) => line.split('#')[0]?.trim())).toEqual(['npm install && npm run demo', 'npm test']);
  });
});
