import { execFileSync, spawnSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DEFAULT_CLAUDE_CODE_VERSION } from '../../src/agent/claude/setup.js';
import { describe, expect, it } from 'vitest';
import { AGENT_KINDS, dialectOf } from '../../src/agent/dialects.js';
import { initAgent } from '../../src/commands/init-agent.js';
import { withAgent } from '../../src/init/workflow-agent.js';
import { unsupportedBy } from '../../src/run-lifecycle/unsupported.js';
import { localDate } from '../../src/files/archive-name.js';
import { LOOP_OWNED_PATHS } from '../../src/files/paths.js';
import { parseTasks } from '../../src/files/tasks.js';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../../src/package-info.js';
import { makeProject, PACKAGE_ROOT, runRalph } from '../helpers/e2e.js';

const template = (name: string) => readFile(join(PACKAGE_ROOT, 'templates', name), 'utf8');
const RALPH_FILES = ['ralph/prompt.md', 'ralph/prd.md', 'ralph/tasks.json', 'ralph/progress.txt'];

describe('ralph init: a fresh repository', () => {
  it('creates the ralph files from the templates, ralph/logs/, and a .gitignore, in a repository with commits', async () => {
    const repo = await makeProject({ git: 'committed' });
    const result = await runRalph(repo, ['init']);
    expect(result.code).toBe(0);
    expect(repo.read('ralph/prompt.md')).toBe(await template('prompt.md'));
    expect(repo.read('ralph/prd.md')).toBe(await template('prd.md'));
    expect(repo.read('ralph/tasks.json')).toBe(await template('tasks.json'));
    expect(repo.read('ralph/progress.txt')).toMatch(/^# Progress\n\n## Codebase Patterns\n/);
    expect(repo.exists('ralph/logs')).toBe(true);
    expect(repo.read('.gitignore').split('\n')).toEqual(expect.arrayContaining(LOOP_OWNED_PATHS));
    expect(repo.exists('.github')).toBe(false);
    for (const path of [...RALPH_FILES, 'ralph/logs/', '.gitignore', '.claude/settings.json'])
      expect(result.stdout).toMatch(new RegExp(`created +${path.replace(/\./g, '\\.')}\n`));
    expect(result.stdout).toContain('Next steps:');
    expect(result.stdout).toContain('ralph/prd.md');
    expect(result.stdout).toContain('ralph run');
  });

  it.skipIf(process.getuid?.() !== 0)(
    "as root, tells how to lift Claude Code's refusal only when IS_SANDBOX does not already",
    async () => {
      const caveat = 'You are root: run ralph as a normal user, or set IS_SANDBOX=1';
      const sandboxed = await runRalph(await makeProject({ git: 'committed' }), ['init']);
      expect(sandboxed.stdout).not.toContain(caveat);
      const bare = await runRalph(await makeProject({ git: 'committed' }), ['init'], {
        env: { IS_SANDBOX: undefined },
      });
      expect(bare.stdout).toContain(caveat);
      // A value Claude Code does not take is named: the user meant to lift the refusal.
      const wrong = await runRalph(await makeProject({ git: 'committed' }), ['init'], { env: { IS_SANDBOX: 'yes' } });
      expect(wrong.stdout).toContain(
        "You are root, and IS_SANDBOX=yes does not lift Claude Code's refusal: set IS_SANDBOX=1 (exactly 1)",
      );
    },
  );

  it('ships an example task list that ralph accepts, with two open stories, marked as the example', async () => {
    const parsed = parseTasks(await template('tasks.json'));
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.tasks.stories.map((story) => story.passes)).toEqual([false, false]);
    if (parsed.ok) expect(parsed.tasks.example).toBe(true);
    // prd.md explains the mark to the person who must remove it.
    expect(await template('prd.md')).toContain('"example": true');
  });

  it('works in a repository with no commit yet, and git really ignores the loop files', async () => {
    const repo = await makeProject({ git: 'unborn' });
    const result = await runRalph(repo, ['init']);
    expect(result.code).toBe(0);
    for (const path of RALPH_FILES) expect(repo.exists(path)).toBe(true);
    const loopFiles = [
      'ralph/logs/iteration-001.log',
      'ralph/blocked.txt',
      'ralph/decide.txt',
      'ralph/.ralph-active',
      'ralph/.tasks-snapshot.json',
      'ralph/state.json',
    ];
    const ignored = execFileSync('git', ['check-ignore', '--no-index', ...loopFiles], {
      cwd: repo.root,
      encoding: 'utf8',
    });
    expect(ignored.trim().split('\n')).toEqual(loopFiles);
    expect(repo.git('status', '--porcelain', '--untracked-files=all')).not.toContain('ralph/logs');
  });

  it('sets up at the repository root when run from a subfolder', async () => {
    const repo = await makeProject({ git: 'committed' });
    await mkdir(join(repo.root, 'src/deep'), { recursive: true });
    const result = await runRalph(repo, ['init'], { cwd: 'src/deep' });
    expect(result.code).toBe(0);
    expect(repo.exists('ralph/tasks.json')).toBe(true);
    expect(repo.exists('src/deep/ralph')).toBe(false);
  });

  it('exits 64 outside a git repository, says to run git init, and writes nothing', async () => {
    const repo = await makeProject({ git: 'none' });
    const result = await runRalph(repo, ['init']);
    expect(result.code).toBe(64);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toContain('git init');
    expect(await repo.list('.')).toEqual([]);
  });
});

describe('ralph init: never overwrites what the user has', () => {
  it('changes nothing on a second run and names the files that already exist', async () => {
    const repo = await makeProject({ git: 'committed' });
    await runRalph(repo, ['init']);
    await repo.write('ralph/prompt.md', 'my own prompt\n');
    await repo.write('ralph/tasks.json', '{"stories": []}\n');
    const before = repo.git('status', '--porcelain', '--untracked-files=all');
    const gitignore = repo.read('.gitignore');

    const again = await runRalph(repo, ['init']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('nothing changed');
    expect(again.stdout).toMatch(/already exists, kept: .*ralph\/prompt\.md.*ralph\/tasks\.json/);
    expect(again.stdout).toContain('--force never does; .gitignore and .claude/settings.json are only ever added to)');
    expect(again.stdout).not.toMatch(/created|replaced/);
    expect(repo.read('ralph/prompt.md')).toBe('my own prompt\n');
    expect(repo.read('ralph/tasks.json')).toBe('{"stories": []}\n');
    expect(repo.read('.gitignore')).toBe(gitignore);
    expect(repo.git('status', '--porcelain', '--untracked-files=all')).toBe(before);
  });

  it('creates only the missing files when some exist', async () => {
    const repo = await makeProject({ git: 'committed' });
    await mkdir(join(repo.root, 'ralph'));
    await repo.write('ralph/prompt.md', 'mine\n');
    const result = await runRalph(repo, ['init']);
    expect(result.code).toBe(0);
    expect(repo.read('ralph/prompt.md')).toBe('mine\n');
    expect(repo.exists('ralph/prd.md')).toBe(true);
    expect(result.stdout).toMatch(/already exists, kept: ralph\/prompt\.md\n/);
  });

  it('with --ci github --install … --force re-writes the workflow and leaves every file of the user byte-identical', async () => {
    const repo = await makeProject({ git: 'committed' });
    await runRalph(repo, ['init', '--ci', 'github']);
    const edited: Record<string, string> = {
      'ralph/prompt.md': 'my own prompt\n',
      'ralph/prd.md': '# My PRD\n',
      'ralph/tasks.json': '{"stories": [{"id": "MINE-1", "title": "t", "priority": 1, "passes": false}]}\n',
      'ralph/progress.txt': 'notes\n',
      'ralph/config.json': '{ "maxIterations": 4, "gates": [] }\n',
    };
    for (const [path, text] of Object.entries(edited)) await repo.write(path, text);
    await repo.write('.gitignore', `node_modules/\n${repo.read('.gitignore')}`);
    const gitignore = repo.read('.gitignore');
    await repo.write('.github/workflows/ralph.yml', 'name: old\n');

    const forced = await runRalph(repo, ['init', '--ci', 'github', '--install', './ralph.tgz', '--force']);
    expect(forced.code).toBe(0);
    for (const [path, text] of Object.entries(edited)) expect(repo.read(path)).toBe(text);
    expect(repo.read('.gitignore')).toBe(gitignore);
    expect(forced.stdout).toMatch(/replaced +\.github\/workflows\/ralph\.yml\n/);
    expect(repo.read('.github/workflows/ralph.yml')).toContain('./ralph.tgz');
    expect(forced.stdout).not.toMatch(/(replaced|reset) +ralph\//);
    expect(forced.stdout).toContain('ralph init --reset <file>');
    expect(repo.git('status', '--porcelain', '--untracked-files=all', '--', 'ralph')).not.toMatch(/bak-/);
  });

  it('--reset replaces the named files with their templates after a backup beside each, never over an older backup', async () => {
    const repo = await makeProject({ git: 'committed' });
    await runRalph(repo, ['init']);
    await repo.write('ralph/tasks.json', '{"stories": []}\n');
    await repo.write('ralph/prd.md', '# mine\n');
    await repo.write('ralph/progress.txt', 'my notes\n');
    const today = localDate(new Date());
    await repo.write(`ralph/tasks.json.bak-${today}`, 'an older backup\n');

    const reset = await runRalph(repo, ['init', '--reset', 'tasks.json,prd.md', '--reset', 'ralph/progress.txt']);
    expect(reset.code).toBe(0);
    expect(repo.read('ralph/tasks.json')).toBe(await template('tasks.json'));
    expect(repo.read('ralph/prd.md')).toBe(await template('prd.md'));
    expect(repo.read('ralph/progress.txt')).toBe(await template('progress.txt'));
    expect(repo.read(`ralph/tasks.json.bak-${today}`)).toBe('an older backup\n');
    expect(repo.read(`ralph/tasks.json.bak-${today}-2`)).toBe('{"stories": []}\n');
    expect(repo.read(`ralph/prd.md.bak-${today}`)).toBe('# mine\n');
    expect(repo.read(`ralph/progress.txt.bak-${today}`)).toBe('my notes\n');
    expect(reset.stdout).toContain(`reset    ralph/tasks.json (the old one is ralph/tasks.json.bak-${today}-2)`);
  });

  it('--reset of a file that is not there, or of a name it does not know, exits 64 and writes nothing', async () => {
    const repo = await makeProject({ git: 'committed' });
    const missing = await runRalph(repo, ['init', '--reset', 'tasks.json']);
    expect(missing.code).toBe(64);
    expect(missing.stderr).toBe(
      'ralph: --reset ralph/tasks.json: there is no ralph/tasks.json to replace — run `ralph init` without --reset to create the missing files\n',
    );
    expect(repo.exists('ralph')).toBe(false);
    const unknown = await runRalph(repo, ['init', '--reset', 'README.md']);
    expect(unknown.code).toBe(64);
    expect(unknown.stderr).toContain('--reset README.md: not a file ralph init writes for you — name one or more of');
  });

  it('a second init leaves out the steps already done: the PRD written, the scaffold committed, a key set', async () => {
    const repo = await makeProject({ git: 'committed' });
    const env = {
      ANTHROPIC_API_KEY: undefined,
      ANTHROPIC_AUTH_TOKEN: undefined,
      CLAUDE_CODE_OAUTH_TOKEN: undefined,
      HOME: repo.root,
    };
    const first = await runRalph(repo, ['init'], { env });
    expect(first.stdout).toContain('Log in to Claude Code');
    expect(first.stdout).toContain('Write the PRD in ralph/prd.md');
    expect(first.stdout).toContain('Commit the scaffold');
    await repo.write('ralph/prd.md', '# The PRD\n');
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'Set up ralph');
    const second = await runRalph(repo, ['init'], { env: { ...env, ANTHROPIC_API_KEY: 'sk-test' } });
    expect(second.stdout).not.toContain('Log in to Claude Code');
    expect(second.stdout).not.toContain('Write the PRD');
    expect(second.stdout).toContain('Write your stories in ralph/tasks.json');
    expect(second.stdout).not.toContain('Commit the scaffold');
    expect(second.stdout).toContain('ralph run --dry-run');
  });
});

describe('ralph init: .gitignore', () => {
  it('keeps the user lines, adds only the missing entries, and never duplicates one', async () => {
    const repo = await makeProject({ git: 'committed' });
    const mine = '# build output\ndist/\n/ralph/logs/\nralph/decide.txt';
    await repo.write('.gitignore', mine);
    const result = await runRalph(repo, ['init']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(
      'updated  .gitignore (added ralph/blocked.txt, ralph/.ralph-active, ralph/.ralph-active.*, ralph/.tasks-snapshot.json, ralph/state.json, ralph/state.json.*, ralph/worktrees/)',
    );
    const text = repo.read('.gitignore');
    expect(text.startsWith(`${mine}\n`)).toBe(true);
    const lines = text.split('\n');
    expect(lines.filter((line) => line.replace(/^\//, '') === 'ralph/logs/')).toHaveLength(1);
    expect(lines.filter((line) => line === 'ralph/decide.txt')).toHaveLength(1);
    expect(lines).toEqual(
      expect.arrayContaining([
        'ralph/blocked.txt',
        'ralph/.ralph-active',
        'ralph/.tasks-snapshot.json',
        'ralph/state.json',
        'dist/',
      ]),
    );

    await runRalph(repo, ['init']);
    expect(repo.read('.gitignore')).toBe(text);
  });

  it('creates .gitignore when there is none', async () => {
    const repo = await makeProject({ git: 'committed' });
    expect(repo.exists('.gitignore')).toBe(false);
    await runRalph(repo, ['init']);
    expect(repo.read('.gitignore')).toContain(LOOP_OWNED_PATHS.join('\n'));
  });
});

describe('ralph init --ci github', () => {
  it('writes a workflow that installs Claude Code and ralph, runs the loop with limits and always uploads the logs', async () => {
    const repo = await makeProject({ git: 'committed' });
    const result = await runRalph(repo, ['init', '--ci', 'github']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/created +\.github\/workflows\/ralph\.yml/);
    const workflow = repo.read('.github/workflows/ralph.yml');
    expect(workflow).toBe(
      withAgent(
        await template('github-workflow.yml'),
        initAgent('claude', dialectOf('claude'), DEFAULT_CLAUDE_CODE_VERSION),
      ).replace('__RALPH_INSTALL__', `${PACKAGE_NAME}@${PACKAGE_VERSION}`),
    );
    expect(workflow).toContain('workflow_dispatch');
    expect(workflow).toContain('npm install -g "@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}"');
    expect(workflow).toContain(`default: '${DEFAULT_CLAUDE_CODE_VERSION}'`);
    expect(workflow).toContain(`npm install -g ${PACKAGE_NAME}@${PACKAGE_VERSION}\n`);
    expect(workflow).toMatch(/ralph run --max-iterations \d+ --max-stuck \d+/);
    expect(workflow).toContain('ANTHROPIC_API_KEY: ${{ secrets.ANTHROPIC_API_KEY }}');
    expect(workflow).toMatch(
      /if: always\(\)\n\s+uses: actions\/upload-artifact@v4\n\s+with:\n\s+name: ralph-logs\n\s+path: \|\n\s+ralph\/logs\//,
    );
    // The run step must not swallow ralph's exit code, or the job would pass on a failed loop
    // (ci-workflow.test.ts runs it).
    expect(workflow).not.toMatch(/ralph run[^\n]*(\|\| true|; *exit 0)/);
    expect(workflow).not.toContain('continue-on-error');
  });

  it('keeps an existing workflow unless --force', async () => {
    const repo = await makeProject({ git: 'committed' });
    await mkdir(join(repo.root, '.github/workflows'), { recursive: true });
    await repo.write('.github/workflows/ralph.yml', 'name: mine\n');
    await runRalph(repo, ['init', '--ci', 'github']);
    expect(repo.read('.github/workflows/ralph.yml')).toBe('name: mine\n');
    const forced = await runRalph(repo, ['init', '--ci', 'github', '--force']);
    expect(forced.stdout).toMatch(/replaced +\.github\/workflows\/ralph\.yml/);
  });

  it('pins the Claude Code installed here, read from `claude --version`', async () => {
    // The scripted stand-in is not Claude Code: the default pin, and no step of its script run.
    const scripted = await makeProject({ git: 'committed' });
    await scripted.steps([{ commit: true }]);
    expect((await runRalph(scripted, ['init', '--ci', 'github'])).code).toBe(0);
    expect(scripted.read('.github/workflows/ralph.yml')).toContain(`default: '${DEFAULT_CLAUDE_CODE_VERSION}'`);
    expect(scripted.calls()).toBe(0);
    const repo = await makeProject({ git: 'committed' });
    const bin = join(repo.root, '.git', 'bin');
    await mkdir(bin);
    await writeFile(join(bin, 'claude'), '#!/bin/sh\necho "2.1.400 (Claude Code)"\n', { mode: 0o755 });
    const result = await runRalph(repo, ['init', '--ci', 'github'], { env: { PATH: `${bin}:${process.env.PATH}` } });
    expect(result.code).toBe(0);
    expect(repo.read('.github/workflows/ralph.yml')).toContain("default: '2.1.400'");
  });

  it('--install on an existing workflow changes its install line only, and says so', async () => {
    const repo = await makeProject({ git: 'committed' });
    await runRalph(repo, ['init', '--ci', 'github']);
    const edited = repo.read('.github/workflows/ralph.yml').replace('timeout-minutes: 180', 'timeout-minutes: 60');
    await repo.write('.github/workflows/ralph.yml', edited);
    const result = await runRalph(repo, ['init', '--ci', 'github', '--install', 'github:me/ralph#v2']);
    expect(result.code).toBe(0);
    // A git spec is packed first: npm cannot build one under -g (npm/cli#8440).
    const line =
      'npm install -g "$RUNNER_TEMP/$(npm pack --silent --pack-destination "$RUNNER_TEMP" github:me/ralph#v2 | tail -n 1)"';
    expect(result.stdout).toContain(`updated`);
    expect(result.stdout).toContain(`.github/workflows/ralph.yml (added install step: ${line})`);
    expect(repo.read('.github/workflows/ralph.yml')).toBe(
      edited.replace(`npm install -g ${PACKAGE_NAME}@${PACKAGE_VERSION}\n`, `${line}\n`),
    );
    const again = await runRalph(repo, ['init', '--ci', 'github', '--install', 'github:me/ralph#v2']);
    expect(again.stdout).toMatch(/kept.*\.github\/workflows\/ralph\.yml/);
  });

  it('--vendor packs this ralph into ralph/vendor/, installs that file, and names both in the commit step', async () => {
    const repo = await makeProject({ git: 'committed' });
    const result = await runRalph(repo, ['init', '--ci', 'github', '--vendor']);
    expect(result.code, result.stderr).toBe(0);
    const tarball = `ralph/vendor/${PACKAGE_NAME}-${PACKAGE_VERSION}.tgz`;
    expect(repo.read('.github/workflows/ralph.yml')).toContain(`npm install -g ./${tarball}\n`);
    expect(result.stdout).toMatch(new RegExp(`created +${tarball.replace(/[.]/g, '\\.')}`));
    const listed = execFileSync('tar', ['-tzf', join(repo.root, tarball)], { encoding: 'utf8' }).split('\n');
    expect(listed).toEqual(
      expect.arrayContaining([
        'package/package.json',
        'package/bin/ralph.cjs',
        'package/dist/cli/main.js',
        'package/templates/github-workflow.yml',
      ]),
    );
    expect(result.stdout).toContain(
      `git add ralph .claude/settings.json .gitignore .github/workflows/ralph.yml ${tarball} && git commit`,
    );
    // The commit step, run as printed, leaves the dry run's scaffold check satisfied.
    repo.git('add', 'ralph', '.claude/settings.json', '.gitignore', '.github/workflows/ralph.yml', tarball);
    expect(repo.git('status', '--porcelain', '--untracked-files=all')).not.toMatch(/^\?\?/m);
  });

  it.each([
    [['--ci', 'github', '--vendor', '--install', 'x@1'], /--vendor and --install both say what the workflow installs/],
    [['--vendor'], /--vendor needs --ci/],
  ])('refuses init %j with exit 64 and writes nothing', async (args, message) => {
    const repo = await makeProject({ git: 'committed' });
    const result = await runRalph(repo, ['init', ...args]);
    expect(result.code).toBe(64);
    expect(result.stderr).toMatch(message);
    expect(repo.exists('ralph')).toBe(false);
  });

  it('--vendor from a ralph that cannot be packed (a checkout missing a built part) exits 64 saying how', async () => {
    const copy = await mkdtemp(join(tmpdir(), 'ralph-unbuilt-'));
    for (const part of ['bin', 'dist', 'templates', 'package.json'])
      await cp(join(PACKAGE_ROOT, part), join(copy, part), { recursive: true });
    await symlink(join(PACKAGE_ROOT, 'node_modules'), join(copy, 'node_modules'));
    const repo = await makeProject({ git: 'committed' });
    const result = spawnSync(process.execPath, [join(copy, 'bin/ralph.cjs'), 'init', '--ci', 'github', '--vendor'], {
      cwd: repo.root,
      encoding: 'utf8',
    });
    expect(result.status).toBe(64);
    expect(result.stderr).toContain(`has no docs/ to pack`);
    expect(result.stderr).toContain('npm run build');
    expect(repo.exists('ralph/config.json')).toBe(false);
  });

  it('rejects an unknown CI provider with exit 64', async () => {
    const repo = await makeProject({ git: 'committed' });
    const result = await runRalph(repo, ['init', '--ci', 'gitlab']);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('github');
    expect(repo.exists('ralph')).toBe(false);
  });

  it('runs ralph as a step whose outputs and summary the workflow relies on', async () => {
    const workflow = await template('github-workflow.yml');
    expect(workflow).toMatch(/- name: Run ralph\n\s+id: ralph\n/);
    expect(workflow).toMatch(
      /ralph run --max-iterations \d+ --max-stuck \d+ --max-runtime \w+ --max-cost \d+ --report \|\| code=\$\?\n/,
    );
    expect(workflow).toContain("if: failure() && steps.ralph.outputs.reason == ''");
  });
});

describe('ralph init: the config file and its quality gates', () => {
  it('writes ralph/config.json with the gates it detects in package.json, and says which', async () => {
    const repo = await makeProject({ git: 'committed' });
    await writeFile(
      join(repo.root, 'package.json'),
      JSON.stringify({ scripts: { build: 'tsc', lint: 'eslint .', test: 'vitest run' } }),
    );
    repo.git('add', 'package.json');
    repo.git('commit', '-q', '-m', 'package.json');
    const result = await runRalph(repo, ['init']);
    expect(result.code).toBe(0);
    const config = JSON.parse(repo.read('ralph/config.json'));
    expect(config.$schema).toBe('./config.schema.json');
    expect(config.gates).toEqual([
      { name: 'build', command: 'npm run build' },
      { name: 'lint', command: 'npm run lint', after: 'build' },
      { name: 'tests', command: 'npm test', after: 'build' },
    ]);
    expect(repo.read('ralph/config.schema.json')).toBe(await template('config.schema.json'));
    expect(result.stdout).toContain('Quality gates written to ralph/config.json');
    expect(result.stdout).toMatch(/tests +npm test/);
    // The loop accepts what init wrote — but not the example stories, until the user replaces them.
    const dry = await runRalph(repo, ['run', '--dry-run']);
    expect(dry.code).toBe(64);
    expect(dry.stdout).toMatch(/^ {2}FAILED +example +ralph\/tasks\.json is still the example/m);
    expect(dry.stdout).toMatch(/maxIterations +10 +config/);
    const anyway = await runRalph(repo, ['run', '--dry-run', '--yes']);
    expect(anyway.code).toBe(0);
    expect(anyway.stdout).toMatch(/^ {2}warning +example +ralph\/tasks\.json is still the example/m);
  });

  it('writes "gates": [] when it detects nothing, and says so', async () => {
    const repo = await makeProject({ git: 'committed' });
    const result = await runRalph(repo, ['init']);
    expect(JSON.parse(repo.read('ralph/config.json')).gates).toEqual([]);
    expect(result.stdout).toContain('Quality gates: none detected');
  });

  it('detects cargo, go and pytest projects', async () => {
    for (const [file, command] of [
      ['Cargo.toml', 'cargo test'],
      ['go.mod', 'go test ./...'],
      ['pytest.ini', 'pytest'],
    ]) {
      const repo = await makeProject({ git: 'committed' });
      await writeFile(join(repo.root, file!), '');
      await runRalph(repo, ['init']);
      expect(JSON.parse(repo.read('ralph/config.json')).gates).toEqual([{ name: 'tests', command }]);
    }
  });
});

describe('ralph init: a broken ralph/config.json of the user', () => {
  it.each([
    ['invalid JSON', '{ "maxIterations": 4,\n', /^ {2}ralph\/config\.json is not valid JSON: .* — fix the file /m],
    [
      'a value the schema refuses',
      '{ "maxIterations": "ten" }\n',
      /^ {2}ralph\/config\.json: maxIterations: expected a whole number ≥ 1, got "ten" — see ralph\/config\.schema\.json/m,
    ],
    ['an unknown key', '{ "maxIteration": 4 }\n', /unknown key "maxIteration" \(did you mean "maxIterations"\?\)/],
  ])('keeps one with %s, says it is broken with the reason and fix, and exits 0', async (_, text, reason) => {
    const repo = await makeProject({ git: 'committed' });
    await mkdir(join(repo.root, 'ralph'), { recursive: true });
    await writeFile(join(repo.root, 'ralph/config.json'), text);
    const result = await runRalph(repo, ['init']);
    expect(result.code).toBe(0);
    expect(repo.read('ralph/config.json')).toBe(text);
    expect(result.stdout).toContain(
      'warning: ralph/config.json is broken: ralph run refuses it until it is fixed. init never replaces it:\n',
    );
    expect(result.stdout).toMatch(reason);
    expect(result.stdout).toContain('ralph init --reset config.json keeps a backup of yours');
    // The other files are still written, and the loop does refuse the config, with the same reason.
    expect(repo.exists('ralph/prompt.md')).toBe(true);
    const run = await runRalph(repo, ['run', '--dry-run', '--yes']);
    expect(run.code).toBe(64);
    expect(run.stderr.replace(/^ralph: /, '  ')).toMatch(reason);
    // A fixed config: init says nothing more about it.
    await writeFile(join(repo.root, 'ralph/config.json'), '{ "maxIterations": 4 }\n');
    expect((await runRalph(repo, ['init'])).stdout).not.toContain('broken');
  });
});

describe('ralph init: the Claude Code Stop hook in .claude/settings.json', () => {
  const RALPH_ENTRY = { hooks: [{ type: 'command', command: 'ralph hook stop', timeout: 60 }] };

  it('registers `ralph hook stop` in a fresh repository', async () => {
    const repo = await makeProject({ git: 'committed' });
    const result = await runRalph(repo, ['init']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/created +\.claude\/settings\.json\n/);
    expect(JSON.parse(repo.read('.claude/settings.json'))).toEqual({ hooks: { Stop: [RALPH_ENTRY] } });
  });

  it("merges into the user's settings, keeping every key and hook, and adds nothing on a second init", async () => {
    const repo = await makeProject({ git: 'committed' });
    const mine = {
      permissions: { allow: ['Bash(npm test)'], deny: ['Read(.env)'] },
      hooks: {
        PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './audit.sh' }] }],
        Stop: [{ hooks: [{ type: 'command', command: 'notify-send "claude stopped"' }] }],
      },
      env: { DEBUG: '1' },
    };
    await mkdir(join(repo.root, '.claude'));
    await repo.write('.claude/settings.json', `${JSON.stringify(mine, null, 2)}\n`);
    await repo.write('.claude/settings.local.json', '{"model": "opus"}\n');

    const result = await runRalph(repo, ['init']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('updated  .claude/settings.json (added Stop hook "ralph hook stop")');
    const merged = repo.read('.claude/settings.json');
    expect(JSON.parse(merged)).toEqual({ ...mine, hooks: { ...mine.hooks, Stop: [...mine.hooks.Stop, RALPH_ENTRY] } });
    expect(repo.read('.claude/settings.local.json')).toBe('{"model": "opus"}\n');

    const again = await runRalph(repo, ['init']);
    expect(again.stdout).toContain('nothing changed');
    expect(again.stdout).toMatch(/already exists, kept: .*\.claude\/settings\.json/);
    expect(repo.read('.claude/settings.json')).toBe(merged);
  });

  it('leaves settings that are not valid JSON untouched, with a warning line, and sets up the rest', async () => {
    const repo = await makeProject({ git: 'committed' });
    await mkdir(join(repo.root, '.claude'));
    const broken = '{\n  // my notes\n  "model": "opus"\n}\n';
    await repo.write('.claude/settings.json', broken);
    const result = await runRalph(repo, ['init']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(repo.read('.claude/settings.json')).toBe(broken);
    expect(result.stdout).toMatch(
      /\n  warning: \.claude\/settings\.json is not valid JSON \(.+\): left it as it is\. To let ralph check each stop of the agent, add \{"hooks":.*"ralph hook stop".*\} to it yourself\.\n/,
    );
    expect(result.stdout).not.toMatch(/(created|updated|kept) +\.claude/);
    expect(repo.exists('ralph/tasks.json')).toBe(true);
  });
});

describe('ralph init --agent <kind>', () => {
  /** No key of any client in the environment, and a HOME with no credential file. */
  const noLogin = (repo: { root: string }) =>
    Object.fromEntries([
      ...AGENT_KINDS.flatMap((kind) => [dialectOf(kind).setup.key.variable, dialectOf(kind).setup.key.secret]).map(
        (name) => [name, undefined],
      ),
      ['ANTHROPIC_AUTH_TOKEN', undefined],
      ['CLAUDE_CODE_OAUTH_TOKEN', undefined],
      ['GOOGLE_API_KEY', undefined],
      ['HOME', repo.root],
      // Only the kind's own executable can be missing: PATH holds git and node, not the fake clients.
      ['PATH', `${join(repo.root, 'no-clients')}:/usr/bin:/bin:${dirname(process.execPath)}`],
    ]);

  it.each(AGENT_KINDS.map((kind) => [kind] as const))(
    '%s: writes agent.kind to the config and tells how to install and log in to that client',
    async (kind) => {
      const dialect = dialectOf(kind);
      const repo = await makeProject({ git: 'committed' });
      const result = await runRalph(repo, ['init', '--agent', kind], { env: noLogin(repo) });
      expect(result.code).toBe(0);
      expect(JSON.parse(repo.read('ralph/config.json')).agent).toEqual({ kind });
      expect(result.stdout).toContain(`Install ${dialect.name}: ${dialect.install}\n`);
      // OpenCode's free default model needs no login: its preflight reads that as logged in already.
      if (kind === 'opencode') expect(result.stdout).not.toContain(`Log in to ${dialect.name}`);
      else expect(result.stdout).toContain(`Log in to ${dialect.name}: ${dialect.setup.login}.\n`);
      // The Stop hook is registered only for a client that has one, and the commit step names what was written.
      const hook = dialect.stopHook?.settingsPath;
      expect(repo.exists('.claude/settings.json')).toBe(hook === '.claude/settings.json');
      expect(result.stdout).toContain(`git add ${['ralph', ...(hook ? [hook] : []), '.gitignore'].join(' ')} &&`);
      if (!hook) expect(result.stdout).toContain(`none is set up for ${dialect.name}.`);
      // What ralph run reads is that kind.
      const dry = await runRalph(repo, ['run', '--dry-run'], { env: noLogin(repo) });
      expect(dry.stdout).toMatch(new RegExp(`\n {2}agent +${kind} +config\n`));
      // The dry run lists what this kind does not support; nothing for a kind that has it all.
      const missing = unsupportedBy(dialect);
      expect(dry.stdout.includes(`Not supported by ${dialect.name}:`)).toBe(missing.length > 0);
      for (const what of missing) expect(dry.stdout).toContain(`\n  ${what}`);
    },
  );

  it('an unknown kind exits 64 with one line listing the kinds, and writes nothing', async () => {
    const repo = await makeProject({ git: 'committed' });
    const result = await runRalph(repo, ['init', '--agent', 'cursor']);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('--agent cursor: no such agent kind');
    expect(result.stderr).toContain(AGENT_KINDS.join(', '));
    expect(result.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(repo.exists('ralph')).toBe(false);
  });

  it("keeps a config of the user's unless --force, which sets agent.kind in it and touches nothing else", async () => {
    const repo = await makeProject({ git: 'committed' });
    await runRalph(repo, ['init']);
    const edited: Record<string, string> = {
      'ralph/prompt.md': 'my own prompt\n',
      'ralph/prd.md': '# My PRD\n',
      'ralph/tasks.json': '{"stories": [{"id": "MINE-1", "title": "t", "priority": 1, "passes": false}]}\n',
      'ralph/progress.txt': 'notes\n',
    };
    for (const [path, text] of Object.entries(edited)) await repo.write(path, text);
    const config = '{\n    "maxIterations": 4,\n    "agent": { "args": ["--x"] },\n    "gates": []\n}\n';
    await repo.write('ralph/config.json', config);

    const kept = await runRalph(repo, ['init', '--agent', 'codex']);
    expect(kept.code).toBe(0);
    expect(repo.read('ralph/config.json')).toBe(config);
    expect(kept.stdout).toContain(
      'ralph/config.json is yours and runs claude: ralph init --agent codex --force sets its agent.kind',
    );
    // Codex has no Stop hook file: one file is added to, and the sentence says so.
    expect(kept.stdout).toContain('--force never does; .gitignore is only ever added to)');

    const forced = await runRalph(repo, ['init', '--agent', 'codex', '--force']);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain('updated  ralph/config.json (added agent.kind: codex)');
    expect(JSON.parse(repo.read('ralph/config.json'))).toEqual({
      maxIterations: 4,
      agent: { args: ['--x'], kind: 'codex' },
      gates: [],
    });
    expect(repo.read('ralph/config.json')).toMatch(/^\{\n {4}"maxIterations"/);
    for (const [path, text] of Object.entries(edited)) expect(repo.read(path)).toBe(text);
    const again = await runRalph(repo, ['init', '--agent', 'codex', '--force']);
    expect(again.stdout).not.toContain('updated  ralph/config.json');
  });

  it('--force never writes through a link planted in place of the config', async () => {
    const repo = await makeProject({ git: 'committed' });
    await runRalph(repo, ['init']);
    const outside = join(await mkdtemp(join(tmpdir(), 'ralph-outside-')), 'bashrc');
    await writeFile(outside, '{"maxIterations": 1}\n');
    await rm(join(repo.root, 'ralph/config.json'));
    await symlink(outside, join(repo.root, 'ralph/config.json'));
    const result = await runRalph(repo, ['init', '--agent', 'codex', '--force']);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain('ralph/config.json');
    expect(await readFile(outside, 'utf8')).toBe('{"maxIterations": 1}\n');
  });

  it('a second init without --agent sets up the kind the config names: --ci github installs that client', async () => {
    const repo = await makeProject({ git: 'committed' });
    await runRalph(repo, ['init', '--agent', 'gemini']);
    const result = await runRalph(repo, ['init', '--ci', 'github']);
    expect(result.code).toBe(0);
    expect(repo.read('.github/workflows/ralph.yml')).toContain(
      'npm install -g "@google/gemini-cli@${GEMINI_CLI_VERSION}"',
    );
  });
});
