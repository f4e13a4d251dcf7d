import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../../src/config/resolve-settings.js';
import { envName } from '../../../src/config/run-options.js';

describe('resolveSettings', () => {
  it('takes flag over environment over config over default', () => {
    const config = { maxIterations: 30, maxStuck: 5, agent: { bin: 'from-config' } };
    const env = { RALPH_MAX_ITERATIONS: '20', RALPH_AGENT_BIN: 'from-env' };
    const { settings, sources } = resolveSettings({ maxIterations: 40 }, env, config);
    expect(settings.maxIterations).toBe(40);
    expect(sources.maxIterations).toBe('flag');
    expect(settings.agentBin).toBe('from-env');
    expect(sources.agentBin).toBe('env');
    expect(settings.maxStuck).toBe(5);
    expect(sources.maxStuck).toBe('config');
    expect(settings.prompt).toBe('ralph/prompt.md');
    expect(sources.prompt).toBe('default');
  });

  it('reads environment switches as booleans', () => {
    expect(resolveSettings({}, { RALPH_QUIET: '1' }, {}).settings.quiet).toBe(true);
    expect(resolveSettings({}, { RALPH_QUIET: 'false' }, { quiet: true }).settings.quiet).toBe(false);
  });

  it('names the variable and the expected form when an environment value is wrong', () => {
    expect(() => resolveSettings({}, { RALPH_MAX_STUCK: 'many' }, {})).toThrow(
      "environment variable RALPH_MAX_STUCK: expected a whole number ≥ 1, got 'many'",
    );
    expect(() => resolveSettings({}, { RALPH_QUIET: 'perhaps' }, {})).toThrow(/RALPH_QUIET: expected true or false/);
  });

  it('reads --max-usage as a percentage from flag, environment or config, and refuses one past 100 or below 1', () => {
    expect(resolveSettings({}, {}, {}).settings.maxUsage).toBeUndefined();
    expect(resolveSettings({}, { RALPH_MAX_USAGE: '90' }, {}).settings.maxUsage).toBe(90);
    expect(resolveSettings({}, { RALPH_MAX_USAGE: '92.5%' }, {}).settings.maxUsage).toBe(92.5);
    expect(resolveSettings({}, {}, { maxUsage: 80 }).settings.maxUsage).toBe(80);
    expect(() => resolveSettings({}, { RALPH_MAX_USAGE: '120' }, {})).toThrow(
      /RALPH_MAX_USAGE: expected a percentage from 1 to 100 \(90, not 0.9\), got '120'/,
    );
    // A share is the likely mistake: 0.9 % would stop almost at once.
    expect(() => resolveSettings({}, { RALPH_MAX_USAGE: '0.9' }, {})).toThrow(
      /RALPH_MAX_USAGE: expected a percentage from 1 to 100/,
    );
  });

  it('fills the agent block from config with documented defaults', () => {
    expect(resolveSettings({}, {}, {}).agent).toEqual({ args: [], skipPermissions: true, env: {} });
    const { agent, sources } = resolveSettings(
      {},
      {},
      { agent: { args: ['--model', 'opus'], skipPermissions: false } },
    );
    expect(agent).toEqual({ args: ['--model', 'opus'], skipPermissions: false, env: {} });
    expect(sources['agent.args']).toBe('config');
  });

  it('derives variable names from flags', () => {
    expect(envName('--max-iterations <n>')).toBe('RALPH_MAX_ITERATIONS');
    expect(envName('--sandbox [name]')).toBe('RALPH_SANDBOX');
    expect(envName('--quiet')).toBe('RALPH_QUIET');
  });
});

describe('resolveSettings: the box, which ralph/config.json may narrow but never widen', () => {
  it('refuses box.write and a box.mode of none in the file, naming the key, with a usage error (64)', () => {
    const cases: [NonNullable<Parameters<typeof resolveSettings>[2]['box']>, string][] = [
      [{ write: ['/'] }, 'box.write'],
      [{ mode: 'none' }, 'box.mode'],
    ];
    for (const [box, key] of cases) {
      expect(() => resolveSettings({}, {}, { box })).toThrow(
        expect.objectContaining({
          kind: 'usage',
          message: expect.stringContaining(`ralph/config.json: ${key} would widen`),
        }),
      );
    }
  });

  it('takes a box mode from the file that narrows (a named box), and widening from a flag or variable', () => {
    expect(resolveSettings({}, {}, { box: { mode: 'bubblewrap' } }).settings.box).toBe('bubblewrap');
    expect(resolveSettings({ box: 'none' }, {}, {}).settings.box).toBe('none');
    expect(resolveSettings({}, { RALPH_BOX_WRITE: '/data,/cache' }, {}).settings.boxWrite).toEqual(['/data', '/cache']);
  });

  it("adds the file's read-only and hidden paths to the flag's: a flag cannot drop what the file narrows", () => {
    const { settings } = resolveSettings(
      { boxHide: ['.env'] },
      { RALPH_BOX_READ_ONLY: 'vendor' },
      { box: { hide: ['secrets'], readOnly: ['fixtures'] } },
    );
    expect(settings.boxHide).toEqual(['.env', 'secrets']);
    expect(settings.boxReadOnly).toEqual(['vendor', 'fixtures']);
    expect(resolveSettings({}, {}, { box: { hide: ['secrets'] } }).settings.boxHide).toEqual(['secrets']);
  });

  it('refuses a cmd: notification in the file, which would run on this machine, and takes it from a flag', () => {
    expect(() => resolveSettings({}, {}, { notify: ['desktop', 'cmd:sh -c id'] })).toThrow(
      expect.objectContaining({
        kind: 'usage',
        message: expect.stringContaining('ralph/config.json: notify names a cmd: target, which runs on this machine'),
        hint: expect.stringContaining('--notify or RALPH_NOTIFY'),
      }),
    );
    expect(resolveSettings({}, {}, { notify: ['desktop', 'https://hooks.example/x'] }).settings.notify).toEqual([
      'desktop',
      'https://hooks.example/x',
    ]);
    expect(resolveSettings({ notify: ['cmd:page-me'] }, {}, {}).settings.notify).toEqual(['cmd:page-me']);
  });

  it('refuses a prompt outside the repository in the file, which ralph would read and hand to the agent', () => {
    for (const prompt of ['/root/.ssh/id_rsa', '../secrets.md', 'ralph/../../x.md']) {
      expect(() => resolveSettings({}, {}, { prompt })).toThrow(
        expect.objectContaining({
          kind: 'usage',
          message: expect.stringContaining('ralph/config.json: prompt names a file outside'),
        }),
      );
    }
    expect(resolveSettings({}, {}, { prompt: 'ralph/../docs/prompt.md' }).settings.prompt).toBe(
      'ralph/../docs/prompt.md',
    );
    expect(resolveSettings({ prompt: '/etc/prompt.md' }, {}, {}).settings.prompt).toBe('/etc/prompt.md');
  });
});
