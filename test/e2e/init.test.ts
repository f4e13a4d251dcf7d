import { execFileSync } from 'node:child_process';
import { mkdtemp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOOP_OWNED_PATHS } from '../../src/files/paths.js';
import { parseTasks } from '../../src/files/tasks.js';
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
    for (const path of [...RALPH_FILES, 'ralph/logs/', '.gitignore']) expect(result.stdout).toMatch(new RegExp(`created +${path.replace(/\./g, '\\.')}\n`));
    expect(result.stdout).toContain('Next steps:');
    expect(result.stdout).toContain('ralph/prd.md');
    expect(result.stdout).toContain('ralph run');
  });

  it('ships an example task list that ralph accepts, with two open stories', async () => {
    const parsed = parseTasks(await template('tasks.json'));
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(parsed.tasks.stories.map((story) => story.passes)).toEqual([false, false]);
  });

  it('works in a repository with no commit yet, and git really ignores the loop files', async () => {
    const repo = await makeProject({ git: 'unborn' });
    const result = await runRalph(repo, ['init']);
    expect(result.code).toBe(0);
    for (const path of RALPH_FILES) expect(repo.exists(path)).toBe(true);
    const ignored = execFileSync('git', ['check-ignore', '--no-index', 'ralph/logs/iteration-001.log', 'ralph/blocked.txt', 'ralph/decide.txt', 'ralph/.ralph-active'], {
      cwd: repo.root,
      encoding: 'utf8',
    });
    expect(ignored.trim().split('\n')).toHaveLength(4);
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

  it('with --force replaces the template files the user changed, lists them, and keeps their .gitignore lines', async () => {
    const repo = await makeProject({ git: 'committed' });
    await runRalph(repo, ['init']);
    await repo.write('ralph/prompt.md', 'my own prompt\n');
    await repo.write('ralph/progress.txt', 'notes\n');
    await repo.write('.gitignore', `node_modules/\n${repo.read('.gitignore')}`);
    const gitignore = repo.read('.gitignore');

    const forced = await runRalph(repo, ['init', '--force']);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toMatch(/replaced +ralph\/prompt\.md\n/);
    expect(forced.stdout).toMatch(/replaced +ralph\/progress\.txt\n/);
    expect(forced.stdout).not.toMatch(/replaced +ralph\/(prd\.md|tasks\.json)/);
    expect(repo.read('ralph/prompt.md')).toBe(await template('prompt.md'));
    expect(repo.read('ralph/progress.txt')).toBe(await template('progress.txt'));
    expect(repo.read('.gitignore')).toBe(gitignore);
  });
});

describe('ralph init: .gitignore', () => {
  it('keeps the user lines, adds only the missing entries, and never duplicates one', async () => {
    const repo = await makeProject({ git: 'committed' });
    const mine = '# build output\ndist/\n/ralph/logs/\nralph/decide.txt';
    await repo.write('.gitignore', mine);
    const result = await runRalph(repo, ['init']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('updated  .gitignore (added ralph/blocked.txt, ralph/.ralph-active)');
    const text = repo.read('.gitignore');
    expect(text.startsWith(`${mine}\n`)).toBe(true);
    const lines = text.split('\n');
    expect(lines.filter((line) => line.replace(/^\//, '') === 'ralph/logs/')).toHaveLength(1);
    expect(lines.filter((line) => line === 'ralph/decide.txt')).toHaveLength(1);
    expect(lines).toEqual(expect.arrayContaining(['ralph/blocked.txt', 'ralph/.ralph-active', 'dist/']));

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
    expect(workflow).toBe(await template('github-workflow.yml'));
    expect(workflow).toContain('workflow_dispatch');
    expect(workflow).toContain('npm install -g @anthropic-ai/claude-code');
    expect(workflow).toContain('npm install -g ralph-loop');
    expect(workflow).toMatch(/run: ralph run --max-iterations \d+ --max-stuck \d+\n/);
    expect(workflow).toContain('ANTHROPIC_API_KEY: ${{ secrets.ANTHROPIC_API_KEY }}');
    expect(workflow).toMatch(/if: always\(\)\n\s+uses: actions\/upload-artifact@v4\n\s+with:\n\s+name: ralph-logs\n\s+path: ralph\/logs\//);
    // The run step must not swallow ralph's exit code, or the job would pass on a failed loop.
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

  it('rejects an unknown CI provider with exit 64', async () => {
    const repo = await makeProject({ git: 'committed' });
    const result = await runRalph(repo, ['init', '--ci', 'gitlab']);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('github');
    expect(repo.exists('ralph')).toBe(false);
  });

  it("the summary step writes last-run.json's reason and exit code to the job summary, and survives a missing file", async () => {
    const workflow = await template('github-workflow.yml');
    const script = /node -e '\n([\s\S]*?)\n\s*'\n/.exec(workflow)?.[1];
    expect(script).toBeDefined();
    const dir = await mkdtemp(join(tmpdir(), 'ralph-summary-'));
    const summary = join(dir, 'summary.md');
    const runStep = () => execFileSync(process.execPath, ['-e', script!], { cwd: dir, env: { ...process.env, GITHUB_STEP_SUMMARY: summary } });

    runStep();
    expect(await readFile(summary, 'utf8')).toContain('ralph: no result');

    await mkdir(join(dir, 'ralph/logs'), { recursive: true });
    const report = { reason: 'stuck', exitCode: 4, detail: '3 iterations without a commit', iterations: 5, maxIterations: 20, durationSeconds: 61, stories: { complete: 1, total: 3 } };
    await writeFile(join(dir, 'ralph/logs/last-run.json'), JSON.stringify(report));
    runStep();
    const text = await readFile(summary, 'utf8');
    expect(text).toContain('### ralph: stuck (exit code 4)');
    expect(text).toContain('3 iterations without a commit');
    expect(text).toContain('Stories: 1/3 complete');
  });
});
