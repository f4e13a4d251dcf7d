import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configSchema, TOP_LEVEL_KEYS } from '../../../src/config/config-schema.js';
import { plainConfig } from '../../../src/config/plain-config.js';
import { RUN_OPTIONS } from '../../../src/config/run-options.js';
import { seeded } from '../../helpers/seeded-random.js';

/**
 * The plain check and the schema agree: the same value, keys in the same order, or both refuse.
 * Only an odd file (a `__proto__` key) is left to the schema even when the schema takes it.
 */
function expectSame(json: unknown): boolean {
  const plain = plainConfig(json);
  const schema = configSchema().safeParse(json);
  const odd = JSON.stringify(json).includes('"__proto__"');
  if (!odd || plain !== undefined) expect(plain !== undefined, JSON.stringify(json)).toBe(schema.success);
  if (plain !== undefined) expect(JSON.stringify(plain)).toBe(JSON.stringify(schema.data));
  return schema.success;
}

/** The config examples the docs show (a bare `"gates": […]` is a key of the file; a webhook's body is none). */
function documented(): unknown[] {
  const blocks = ['configuration', 'quality-gates', 'notifications'].flatMap((name) => {
    const text = readFileSync(new URL(`../../../docs/${name}.md`, import.meta.url), 'utf8');
    return [...text.matchAll(/```json\n([\s\S]*?)```/g)].map((match) => match[1]!.trim());
  });
  return blocks
    .filter((block) => !block.includes('"event"'))
    .map((block) => JSON.parse(block.startsWith('"') ? `{${block}}` : block) as unknown);
}

const gate = (name: string, extra: Record<string, unknown> = {}) => ({ name, command: `npm run ${name}`, ...extra });

const CONFIGS: unknown[] = [
  {},
  { $schema: './config.schema.json', maxIterations: 15, maxStuck: 3, quiet: true, output: 'text' },
  { maxRuntime: '1h30m', iterationTimeout: '45s', maxCost: 2.5, maxUsage: 90, notify: ['desktop'], sandbox: 'box' },
  { agent: { kind: 'codex', fallback: 'claude', bin: 'x', model: 'm', args: ['-v'], skipPermissions: false, env: {} } },
  { gates: [gate('build'), gate('test', { after: 'build', timeout: '5m' })], gatesWhen: 'commit', notifyOn: ['ended'] },
  // Refused: the message is the schema's.
  { maxIteration: 5 },
  { maxIterations: 'ten' },
  { maxStuck: 0 },
  { quiet: 'yes' },
  { agent: { bin: 'claude', arg: [] } },
  { agent: { args: '--model opus' } },
  { agent: { env: { A: 1 } } },
  { agent: null },
  { sandbox: '../x' },
  { gates: [gate('a', { after: 'b' }), gate('b')] },
  { gates: [gate('a'), gate('a')] },
  { gates: [{ name: '', command: 'x' }] },
  { gates: [{ name: 'x' }] },
  { gates: [gate('a', { timeout: 'soon' })] },
  { gates: [gate('a', { extra: 1 })] },
  { notify: ['http://evil.example/secret'] },
  { notifyOn: [] },
  JSON.parse('{"__proto__": {"maxIterations": 3}}'),
  JSON.parse('{"agent": {"env": {"__proto__": "x"}}}'),
  [],
  null,
  'config',
  3,
];

describe('ralph/config.json read without zod', () => {
  it.each(CONFIGS.map((json) => [JSON.stringify(json), json]))('%s: as the schema reads it, or refused', (_, json) => {
    expectSame(json);
  });

  it('reads every example of the docs by hand', () => {
    const examples = documented();
    expect(examples.length).toBeGreaterThan(2);
    for (const json of examples) {
      expect(expectSame(json)).toBe(true);
      expect(plainConfig(json)).toBeDefined();
    }
  });

  it('agrees with the schema on generated files, valid and not', () => {
    const random = seeded(26);
    const values: unknown[] = [0, 1, 3, 1.5, 90, 101, -1, '', 'x', '90m', 'text', 'claude', 'desktop', true, null, []];
    const valueFor = (key: (typeof TOP_LEVEL_KEYS)[number]): unknown => {
      const kind = RUN_OPTIONS[key].kind;
      const fitting = values.filter((value) => kind.schema.safeParse(value).success);
      return random.chance(0.9) && fitting.length > 0 ? random.pick(fitting) : random.pick(values);
    };
    const names = ['build', 'lint', 'test'];
    const gates = () =>
      random.some(names, 0.6).map((name) => ({
        ...gate(random.chance(0.95) ? name : ''),
        ...(random.chance(0.3) ? { after: random.pick(names) } : {}),
        ...(random.chance(0.3) ? { timeout: random.pick(['10m', '2h', 'later', 5]) } : {}),
      }));
    let accepted = 0;
    for (let round = 0; round < 1500; round++) {
      const json: Record<string, unknown> = {};
      for (const key of random.some(TOP_LEVEL_KEYS, 0.2)) json[key] = valueFor(key);
      if (random.chance(0.3)) json.agent = { kind: random.pick(['claude', 'codex', 'gpt']), args: ['-v'] };
      if (random.chance(0.4)) json.gates = gates();
      if (random.chance(0.05)) json[random.pick(['maxIteration', 'gate', 'Quiet'])] = 1;
      if (expectSame(json)) accepted++;
    }
    // Both verdicts are exercised.
    expect(accepted).toBeGreaterThan(300);
    expect(accepted).toBeLessThan(1400);
  });
});
