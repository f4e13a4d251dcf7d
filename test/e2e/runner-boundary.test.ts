import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, runRalph, type Repo } from '../helpers/e2e.js';
import { repoWithLists } from '../helpers/parallel-repo.js';
import { readAsRunner, readOutputFile } from '../helpers/workflow-commands.js';

/**
 * A hostile agent of its own (not the scripted one, which speaks first): before writing a byte of
 * its own output it writes straight into ralph's stdout, the runner's pipe, then leaves a stray
 * outside its process group that writes there again after the agent has exited.
 */
const HOSTILE_AGENT = `#!/bin/sh
if [ "$1" = "--version" ]; then echo "1.0.0 (hostile)"; exit 0; fi
RALPH_OUT=/proc/$PPID/fd/1
printf '::stop-commands::agent-token\\n::error::pwned\\n::add-mask::Iteration\\n::agent-token::\\n::ERROR::pwned after its resume\\n' > "$RALPH_OUT"
env > "$HOSTILE_DUMP"
setsid sh -c "sleep 2; printf '::error::pwned by a stray\\\\n::add-mask::ralph\\\\n' > $RALPH_OUT" > /dev/null 2>&1 &
cat > /dev/null
echo '::warning::pwned on its own stdout'
echo '<promise>BLOCKED:hostile agent</promise>'
`;

const RUNNER_VARIABLES = {
  GITHUB_ENV: 'env',
  GITHUB_PATH: 'path',
  GITHUB_STATE: 'state',
  GITHUB_OUTPUT: 'output',
  GITHUB_STEP_SUMMARY: 'summary.md',
};

describe('on GitHub Actions the runner hears ralph alone', () => {
  it("obeys no command the agent or its stray writes into ralph's stdout, and the agent gets no runner variable", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ralph-runner-'));
    const agent = join(dir, 'hostile-agent');
    await writeFile(agent, HOSTILE_AGENT);
    await chmod(agent, 0o755);
    const files = Object.fromEntries(Object.entries(RUNNER_VARIABLES).map(([name, file]) => [name, join(dir, file)]));
    for (const path of Object.values(files)) await writeFile(path, '');
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const result = await runRalph(repo, ['run', '--agent-bin', agent, '--output', 'text', '--max-iterations', '1'], {
      env: {
        GITHUB_ACTIONS: 'true',
        CI: 'true',
        ...files,
        GITHUB_TOKEN: 'ghs_secret',
        GH_TOKEN: 'ghs_secret',
        ACTIONS_RUNTIME_TOKEN: 'runtime',
        ACTIONS_ID_TOKEN_REQUEST_URL: 'https://oidc.invalid',
        ACTIONS_ID_TOKEN_REQUEST_TOKEN: 'oidc',
        ACTIONS_CACHE_URL: 'https://cache.invalid',
        HOSTILE_DUMP: join(dir, 'agent-env'),
      },
      // The runner reads a step's stdout from a pipe (Node's own 'pipe' is a socket, which /proc cannot reopen).
      wrapper: ['bash', '-c', 'set -o pipefail; "$@" | cat', 'bash'],
    });
    expect(result.code, result.stderr).toBe(2);
    // The agent did write into ralph's stdout, before its own first byte…
    expect(result.stdout).toContain('::error::pwned\n');
    expect(result.stdout.indexOf('::error::pwned\n')).toBeLessThan(
      result.stdout.indexOf('::warning::pwned on its own'),
    );
    // …and the runner obeyed ralph alone.
    const runner = readAsRunner(result.stdout);
    expect(runner.stopped).toBe(false);
    const obeyed = runner.obeyed.filter((command) => !['stop-commands', 'resume'].includes(command.name));
    expect(obeyed.map(({ name, data }) => `${name}:${data}`)).toEqual([
      'group:Iteration 1 (implement)',
      'endgroup:',
      'warning:ralph: BLOCKED (exit 2): hostile agent',
    ]);
    for (const command of runner.obeyed.filter((command) => command.name === 'stop-commands'))
      expect(command.data).toMatch(/^ralph-[0-9a-f]{32}$/);
    // No stray was left to write after ralph's last resume.
    expect(result.stdout).not.toContain('pwned by a stray');

    const agentEnv = await readFile(join(dir, 'agent-env'), 'utf8');
    for (const name of [...Object.keys(RUNNER_VARIABLES), 'GITHUB_TOKEN', 'GH_TOKEN', 'ACTIONS_'])
      expect(agentEnv).not.toMatch(new RegExp(`^${name}`, 'm'));
    expect(agentEnv).toMatch(/^GITHUB_ACTIONS=true$/m);
    // ralph kept them for itself.
    expect(Object.fromEntries(readOutputFile(await readFile(files.GITHUB_OUTPUT!, 'utf8')))).toMatchObject({
      reason: 'blocked',
      'exit-code': '2',
    });
    expect(await readFile(files.GITHUB_STEP_SUMMARY!, 'utf8')).toContain('## Ralph Loop Summary');
    for (const name of ['GITHUB_ENV', 'GITHUB_PATH', 'GITHUB_STATE'])
      expect(await readFile(files[name]!, 'utf8')).toBe('');
  });

  it('gives the gates, which run the agent’s code, the same: no runner variable, no command obeyed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ralph-runner-'));
    const files = Object.fromEntries(Object.entries(RUNNER_VARIABLES).map(([name, file]) => [name, join(dir, file)]));
    for (const path of Object.values(files)) await writeFile(path, '');
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const dump = join(dir, 'gate-env');
    const command = `env > ${dump}; printf '::stop-commands::gate\\n::error::pwned by a gate\\n' > /proc/$PPID/fd/1`;
    await writeFile(join(repo.root, 'ralph/config.json'), JSON.stringify({ gates: [{ name: 'tests', command }] }));
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run'], {
      env: {
        GITHUB_ACTIONS: 'true',
        CI: 'true',
        ...files,
        GITHUB_TOKEN: 'ghs_secret',
        ACTIONS_RUNTIME_TOKEN: 'runtime',
      },
      wrapper: ['bash', '-c', 'set -o pipefail; "$@" | cat', 'bash'],
    });
    expect(result.code, result.stdout).toBe(0);
    expect(result.stdout).toContain('::error::pwned by a gate');
    const runner = readAsRunner(result.stdout);
    expect(runner.stopped).toBe(false);
    expect(runner.obeyed.filter((c) => !['stop-commands', 'resume'].includes(c.name)).map((c) => c.name)).toEqual([
      'group',
      'endgroup',
    ]);
    const gateEnv = await readFile(dump, 'utf8');
    for (const name of [...Object.keys(RUNNER_VARIABLES), 'GITHUB_TOKEN', 'ACTIONS_'])
      expect(gateEnv).not.toMatch(new RegExp(`^${name}`, 'm'));
    expect(Object.fromEntries(readOutputFile(await readFile(files.GITHUB_OUTPUT!, 'utf8')))).toMatchObject({
      reason: 'complete',
    });
  });

  describe('every gate path gets the one gate environment', () => {
    /** The runner's files and tokens as GitHub Actions sets them, and a gate appending its environment to `dump`. */
    async function runner(): Promise<{ env: NodeJS.ProcessEnv; gates: string; dump: string }> {
      const dir = await mkdtemp(join(tmpdir(), 'ralph-runner-'));
      const files = Object.fromEntries(Object.entries(RUNNER_VARIABLES).map(([name, file]) => [name, join(dir, file)]));
      for (const path of Object.values(files)) await writeFile(path, '');
      const dump = join(dir, 'gate-env');
      const command = `{ env; echo ----; } >> ${dump}`;
      return {
        env: { GITHUB_ACTIONS: 'true', CI: 'true', ...files, GITHUB_TOKEN: 'ghs', ACTIONS_RUNTIME_TOKEN: 'runtime' },
        gates: JSON.stringify({ gates: [{ name: 'tests', command }] }),
        dump,
      };
    }

    /** Each gate's environment the dump holds: at least `count` of them, and none with a runner variable. */
    async function expectClean(dump: string, count: number): Promise<void> {
      const each = (await readFile(dump, 'utf8')).split('----\n').filter(Boolean);
      expect(each.length).toBeGreaterThanOrEqual(count);
      for (const env of each) {
        for (const name of [...Object.keys(RUNNER_VARIABLES), 'GITHUB_TOKEN', 'ACTIONS_'])
          expect(env).not.toMatch(new RegExp(`^${name}`, 'm'));
        expect(env).toMatch(/^CI=true$/m);
      }
    }

    /** A finished list `name` on its branch ralph/<name>, from main. */
    async function finished(repo: Repo, name: string): Promise<void> {
      repo.git('switch', '-q', '-c', `ralph/${name}`);
      await repo.write('ralph/tasks.json', JSON.stringify({ project: name, stories: [{ id: 'S-1', passes: true }] }));
      await repo.write(`${name}.txt`, `${name}\n`);
      repo.git('add', '-A');
      repo.git('commit', '-q', '-m', `${name} done`);
      repo.git('switch', '-q', '-');
    }

    it('ralph integrate', async () => {
      const { env, gates, dump } = await runner();
      const repo = await repoWithLists(['api'], 1, {}, { 'ralph/config.json': gates });
      await finished(repo, 'api');
      const result = await runRalph(repo, ['integrate', '--into', 'ralph/integration/test'], { env });
      expect(result.code, result.stdout + result.stderr).toBe(0);
      await expectClean(dump, 1);
    });

    it('ralph run --parallel --integrate: the gates of a base and of the integration', async () => {
      const { env, gates, dump } = await runner();
      const repo = await repoWithLists(
        ['api', 'ui'],
        1,
        { ui: { dependsOn: ['api'] } },
        { 'ralph/config.json': gates },
      );
      await repo.steps([{ implement: true, completeWhenDone: true }]);
      const result = await runRalph(repo, ['run', '--parallel', '--integrate', '--max-iterations', '3'], {
        env,
        timeoutMs: 120_000,
      });
      expect(result.code, result.stdout + result.stderr).toBe(0);
      // ui's base (api merged and gated), each loop's gates, then api and ui merged and gated.
      await expectClean(dump, 5);
    }, 180_000);
  });
});
