import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configPathOf, envName, RUN_OPTIONS, type RunOptionKey } from '../../src/config/run-options.js';

const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

describe('README', () => {
  it.each(Object.keys(RUN_OPTIONS) as RunOptionKey[])('documents the flag, variable and config key of %s', (key) => {
    const def = RUN_OPTIONS[key];
    expect(readme).toContain(`\`${def.flag}\``);
    expect(readme).toContain(`\`${envName(def.flag)}\``);
    expect(readme).toContain(`\`${configPathOf(key).join('.')}\``);
  });

  it('starts with exactly the two set-up commands', () => {
    const firstBlock = readme.split('```')[1] ?? '';
    const commands = firstBlock.split('\n').filter((line) => line.trim() && !line.startsWith('sh'));
    expect(commands.map((line) => line.split('#')[0]?.trim())).toEqual(['npm install && npm run demo', 'npm test']);
  });
});
