import { readFile, writeFile, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configJsonSchema } from '../../../src/config/config-schema.js';
import { loadConfig } from '../../../src/config/load-config.js';

async function load(text: string) {
  const path = join(await mkdtemp(join(tmpdir(), 'ralph-config-')), 'config.json');
  await writeFile(path, text);
  return loadConfig(path, 'ralph/config.json');
}

describe('loadConfig', () => {
  it('treats a missing file as an empty config', async () => {
    expect(await loadConfig(join(tmpdir(), 'no-such-ralph-config.json'), 'x')).toEqual({});
  });

  it('accepts the documented keys', async () => {
    const config = await load(
      JSON.stringify({
        $schema: './x.json',
        maxIterations: 5,
        quiet: true,
        agent: { bin: 'claude', args: ['--model', 'opus'], env: { A: 'b' } },
      }),
    );
    expect(config.maxIterations).toBe(5);
    expect(config.agent?.args).toEqual(['--model', 'opus']);
  });

  it.each([
    ['{ "maxIterations": 5, }', /^ralph\/config.json is not valid JSON/],
    ['{ "maxIteration": 5 }', 'ralph/config.json: unknown key "maxIteration" (did you mean "maxIterations"?)'],
    ['{ "maxIterations": "ten" }', 'ralph/config.json: maxIterations: expected a whole number ≥ 1, got "ten"'],
    ['{ "maxStuck": 0 }', 'ralph/config.json: maxStuck: expected a whole number ≥ 1, got 0'],
    ['{ "quiet": "yes" }', 'ralph/config.json: quiet: expected true or false, got "yes"'],
    [
      '{ "agent": { "bin": "claude", "arg": [] } }',
      'ralph/config.json: unknown key "agent.arg" (did you mean "agent.args"?)',
    ],
    ['{ "agent": { "args": "--model opus" } }', /^ralph\/config.json: agent.args: expected array, got "--model opus"$/],
    ['{ "sandbox": "../x" }', /^ralph\/config.json: sandbox: expected true, false, or a sandbox name/],
  ])('names the key and the expected form: %s', async (text, message) => {
    await expect(load(text)).rejects.toThrow(message);
  });
});

describe('templates/config.schema.json', () => {
  it('is exactly the schema the loader validates with (run `npm run schema` after changing options)', async () => {
    const committed = JSON.parse(
      await readFile(new URL('../../../templates/config.schema.json', import.meta.url), 'utf8'),
    );
    expect(committed).toEqual(configJsonSchema());
  });
});
