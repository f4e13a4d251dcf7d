import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, runRalph, type RalphResult, type Step } from '../helpers/e2e.js';
import {
  readAsRunner,
  readOutputFile,
  STEP_SUMMARY_LIMIT_BYTES,
  type ObeyedCommand,
} from '../helpers/workflow-commands.js';

const ANSI = /\u001b\[\d+m/;

async function githubFiles() {
  const dir = await mkdtemp(join(tmpdir(), 'ralph-gha-'));
  const files = { GITHUB_STEP_SUMMARY: join(dir, 'summary.md'), GITHUB_OUTPUT: join(dir, 'output') };
  await writeFile(files.GITHUB_STEP_SUMMARY, '');
  await writeFile(files.GITHUB_OUTPUT, '');
  return {
    env: { GITHUB_ACTIONS: 'true', CI: 'true', ...files },
    read: (name: keyof typeof files) => readFile(files[name], 'utf8'),
    /** $GITHUB_OUTPUT as the runner reads it (throws where the runner would fail the step). */
    outputs: async () => Object.fromEntries(readOutputFile(await readFile(files.GITHUB_OUTPUT, 'utf8'))),
    summaryBytes: async () => (await stat(files.GITHUB_STEP_SUMMARY)).size,
  };
}

/** What the runner obeyed in ralph's output, checked for what must hold in every run. */
function obeyedByRunner(result: RalphResult): ObeyedCommand[] {
  // On Actions ralph writes the agent's stderr to stdout; its own stderr must hold no command even
  // if the runner handles it first (it handles a batch's stderr lines before its stdout lines): an
  // error line quoting an agent's words is fenced there on its own.
  const errors = readAsRunner(result.stderr);
  expect(errors.stopped).toBe(false);
  expect(errors.obeyed.filter((command) => command.name !== 'stop-commands' && command.name !== 'resume')).toEqual([]);
  const runner = readAsRunner(result.stdout);
  expect(runner.stopped).toBe(false);
  expect(runner.echo).toBe(false);
  // Each stop has a fresh token, printed only to stop and to resume.
  const tokens = runner.obeyed.filter((command) => command.name === 'stop-commands').map((command) => command.data);
  expect(new Set(tokens).size).toBe(tokens.length);
  for (const token of tokens) {
    expect(token).toMatch(/^ralph-[0-9a-f]{32}$/);
    expect(result.stdout.split(token)).toHaveLength(3);
  }
  for (const command of runner.obeyed) expect(command.line).not.toMatch(ANSI);
  return runner.obeyed.filter((command) => command.name !== 'stop-commands' && command.name !== 'resume');
}

/** Text an agent prints to take over the job, every way the runner might obey it. */
const HOSTILE_LINES = [
  '::add-mask::HOSTILE-mask',
  '::set-output name=reason::HOSTILE-output',
  '::set-env name=NODE_OPTIONS::HOSTILE-env',
  '::error::HOSTILE error',
  '::group::HOSTILE group',
  '::stop-commands::other',
  '::other::',
  '::echo::on',
  '    ::warning::HOSTILE indented',
  'a line with ##[error]HOSTILE legacy',
  '::notice::HOSTILE crlf\r',
  'carriage\r::error::HOSTILE after a lone CR',
].join('\n');

/** A hostile step: the lines above, a command split across two writes, and last lines with no newline. */
function hostileStep(say: string): Step {
  return {
    say: [`${HOSTILE_LINES}\n::add-`, 'mask::HOSTILE-split\n', say],
    stderr: '::error::HOSTILE on stderr\n',
    stderrAtEnd: '::warning::HOSTILE stderr last line',
    pauseMs: 20,
  };
}

describe('ralph run on GitHub Actions', () => {
  it('groups each iteration, annotates the ending, and writes the step summary and outputs, as the runner reads them', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }, { id: 'US-2' }] });
    await repo.steps([
      { implement: true },
      { say: 'thinking\n' },
      { say: '<promise>BLOCKED:the staging API key is missing</promise>' },
    ]);
    const gha = await githubFiles();
    const result = await runRalph(repo, ['run'], { env: { ...gha.env, NO_COLOR: undefined, FORCE_COLOR: '1' } });
    expect(result.code).toBe(2);
    const obeyed = obeyedByRunner(result);
    expect(obeyed.map(({ name, data, properties }) => ({ name, data, properties }))).toEqual([
      { name: 'group', data: 'Iteration 1 (implement)', properties: {} },
      { name: 'endgroup', data: '', properties: {} },
      { name: 'group', data: 'Iteration 2 (implement)', properties: {} },
      { name: 'endgroup', data: '', properties: {} },
      { name: 'group', data: 'Iteration 3 (implement)', properties: {} },
      { name: 'endgroup', data: '', properties: {} },
      {
        name: 'warning',
        data: 'ralph: BLOCKED (exit 2): the staging API key is missing',
        properties: { title: 'ralph is blocked' },
      },
    ]);
    // The runner stamps every line itself: ralph adds no timestamps of its own there.
    expect(result.stdout).not.toMatch(/^\S*\d\d:\d\d:\d\d /m);
    const summary = await gha.read('GITHUB_STEP_SUMMARY');
    expect(summary).toContain('## Ralph Loop Summary');
    expect(summary).toContain('| Exit | BLOCKED (code 2) |');
    expect(summary).toContain('### Blocked\n\n```text\nthe staging API key is missing\n```');
    expect(summary).toMatch(/\| 1 \| implement \| .* \| [0-9a-f]{7} \| 1\/2 \| ok \|/);
    expect(await gha.summaryBytes()).toBeLessThan(STEP_SUMMARY_LIMIT_BYTES);
    expect(await gha.outputs()).toEqual({
      reason: 'blocked',
      'exit-code': '2',
      detail: 'the staging API key is missing',
    });
  });

  it.each(['text', 'stream-json'])("obeys none of a hostile agent's commands (--output %s)", async (output) => {
    const repo = await makeRepo({ stories: [{ id: 'US-1', title: '##[error]HOSTILE title' }] });
    await repo.steps([
      hostileStep('<promise>BLOCKED:##[error]HOSTILE reason %0A ::add-mask::x</promise>\n::error::HOSTILE last line'),
    ]);
    const gha = await githubFiles();
    const result = await runRalph(repo, ['run', '--output', output], {
      env: { ...gha.env, NO_COLOR: undefined, FORCE_COLOR: '1' },
    });
    expect(result.code).toBe(2);
    // The agent's lines did reach the log (in text mode as they were written)…
    expect(result.stdout).toContain('HOSTILE-split');
    // Both unfinished last lines (stdout's in text mode, and stderr's, which joins stdout on
    // Actions) are ended before ralph's next line.
    if (output === 'text') expect(result.stdout).toContain('::error::HOSTILE last line');
    expect(result.stdout).toContain('::warning::HOSTILE stderr last line\n');
    // …and the runner obeyed only ralph.
    expect(obeyedByRunner(result).map(({ name, data, properties }) => ({ name, data, properties }))).toEqual([
      { name: 'group', data: 'Iteration 1 (implement)', properties: {} },
      { name: 'endgroup', data: '', properties: {} },
      {
        name: 'warning',
        data: 'ralph: BLOCKED (exit 2): ##[error]HOSTILE reason %0A ::add-mask::x',
        properties: { title: 'ralph is blocked' },
      },
    ]);
    const outputs = await gha.outputs();
    expect(outputs).toEqual({
      reason: 'blocked',
      'exit-code': '2',
      detail: '##[error]HOSTILE reason %0A ::add-mask::x',
    });
  });

  it('gives DECIDE a notice, not an error', async () => {
    const repo = await makeRepo();
    await repo.steps([{ say: '<promise>DECIDE:REST or GraphQL?</promise>' }]);
    const gha = await githubFiles();
    const result = await runRalph(repo, ['run'], { env: gha.env });
    expect(result.code).toBe(3);
    const annotations = obeyedByRunner(result).filter((command) =>
      ['error', 'warning', 'notice'].includes(command.name),
    );
    expect(annotations).toMatchObject([
      {
        name: 'notice',
        properties: { title: 'ralph needs a decision' },
        data: 'ralph: DECIDE (exit 3): REST or GraphQL?',
      },
    ]);
    expect(await gha.read('GITHUB_STEP_SUMMARY')).toContain('### Decision needed');
  });

  it("says how to answer the workflow's way where it gives one (RALPH_ANSWER_HINT), in the annotation and the summary", async () => {
    const hint = { RALPH_ANSWER_HINT: 'run this workflow again with the answer input' };
    const blockedRepo = await makeRepo();
    await blockedRepo.steps([{ say: '<promise>BLOCKED:no staging key</promise>' }]);
    const blockedFiles = await githubFiles();
    const blocked = await runRalph(blockedRepo, ['run'], { env: { ...blockedFiles.env, ...hint } });
    expect(blocked.code).toBe(2);
    const annotations = (result: RalphResult) =>
      obeyedByRunner(result).filter((command) => ['error', 'warning', 'notice'].includes(command.name));
    expect(annotations(blocked)).toMatchObject([
      {
        name: 'warning',
        data: 'ralph: BLOCKED (exit 2): no staging key — run this workflow again with the answer input',
      },
    ]);
    const blockedSummary = await blockedFiles.read('GITHUB_STEP_SUMMARY');
    expect(blockedSummary).toContain(
      '| Next | resolve it, then run this workflow again with the answer input, saying what you did |',
    );
    expect(blockedSummary).not.toContain('ralph answer --run');
    // The terminal says the terminal's way still.
    expect(blocked.stdout).toContain('ralph answer --run');

    const decideRepo = await makeRepo();
    await decideRepo.steps([{ say: '<promise>DECIDE:REST or GraphQL?</promise>' }]);
    const decideFiles = await githubFiles();
    const decide = await runRalph(decideRepo, ['run'], { env: { ...decideFiles.env, ...hint } });
    expect(decide.code).toBe(3);
    expect(annotations(decide)).toMatchObject([
      {
        name: 'notice',
        data: 'ralph: DECIDE (exit 3): REST or GraphQL? — run this workflow again with the answer input',
      },
    ]);
    expect(await decideFiles.read('GITHUB_STEP_SUMMARY')).toContain(
      '| Next | run this workflow again with the answer input, giving your answer |',
    );

    // Dispatched again without an answer: the start is refused, and says the same way.
    const again = await runRalph(blockedRepo, ['run'], { env: { ...blockedFiles.env, ...hint } });
    expect(again.code).toBe(2);
    expect(annotations(again)).toMatchObject([
      {
        name: 'warning',
        data: 'ralph: BLOCKED (exit 2): the loop is blocked: no staging key — run this workflow again with the answer input',
      },
    ]);
  });

  it('writes no annotation on success, and the outputs say complete', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const gha = await githubFiles();
    const result = await runRalph(repo, ['run'], { env: gha.env });
    expect(result.code).toBe(0);
    expect(obeyedByRunner(result).map((command) => command.name)).toEqual(['group', 'endgroup']);
    expect(await gha.outputs()).toEqual({ reason: 'complete', 'exit-code': '0' });
  });

  it("obeys none of the commands in a blocked reason a refused start quotes, nor in ralph status's titles", async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1', title: `Title ${HOSTILE_LINES}` }] });
    await writeFile(
      join(repo.root, 'ralph/blocked.txt'),
      `## Blocked (from iteration 1, 2026-01-01T00:00:00Z)\n${HOSTILE_LINES}\n`,
    );
    const gha = await githubFiles();
    const refused = await runRalph(repo, ['run'], { env: gha.env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('::error::HOSTILE error');
    expect(obeyedByRunner(refused).map((command) => command.name)).toEqual(['warning']);

    const status = await runRalph(repo, ['status'], { env: gha.env });
    expect(status.stdout).toContain('HOSTILE');
    expect(obeyedByRunner(status)).toEqual([]);
    const json = await runRalph(repo, ['status', '--json'], { env: gha.env });
    expect(readAsRunner(json.stdout).obeyed).toEqual([]);
    // The same strings to any JSON reader.
    expect(JSON.stringify(JSON.parse(json.stdout))).toContain('a line with ##[error]HOSTILE legacy');
  });

  it('annotates a refused start and writes its reason to the outputs', async () => {
    const repo = await makeRepo();
    await writeFile(
      join(repo.root, 'ralph/blocked.txt'),
      '## Blocked (from iteration 1, 2026-01-01T00:00:00Z)\nno key\n',
    );
    const gha = await githubFiles();
    const result = await runRalph(repo, ['run'], { env: gha.env });
    expect(result.code).toBe(2);
    expect(obeyedByRunner(result)).toMatchObject([{ name: 'warning', properties: { title: 'ralph is blocked' } }]);
    expect(obeyedByRunner(result)[0]?.data).toMatch(/^ralph: BLOCKED \(exit 2\)/);
    const outputs = await gha.outputs();
    expect(outputs).toMatchObject({ reason: 'blocked', 'exit-code': '2' });
    expect(outputs.detail).toContain('no key');
  });
});

describe('a bad command line on GitHub Actions', () => {
  it('is annotated and its reason output, as a refused start is', async () => {
    const repo = await makeRepo();
    const gha = await githubFiles();
    const result = await runRalph(repo, ['run', '--max-iteration', '5'], { env: gha.env });
    expect(result.code).toBe(64);
    expect(obeyedByRunner(result)).toMatchObject([{ name: 'error' }]);
    expect(obeyedByRunner(result)[0]?.data).toContain("unknown option '--max-iteration'");
    // With its fix, as the terminal line has it.
    expect(obeyedByRunner(result)[0]?.data).toContain('see `ralph --help`');
    expect(await gha.outputs()).toMatchObject({ reason: 'setup', 'exit-code': '64' });
  });
});

describe('ralph run in CI and colour', () => {
  it("timestamps ralph's own lines in CI other than GitHub Actions", async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run'], { env: { CI: 'true' } });
    expect(result.stdout).toMatch(/^\d\d:\d\d:\d\d ── Iteration 1/m);
    expect(result.stdout).toMatch(/^\d\d:\d\d:\d\d Exit: +COMPLETE/m);
  });

  it('colours with FORCE_COLOR, and NO_COLOR wins over it', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const coloured = await runRalph(repo, ['run'], { env: { NO_COLOR: undefined, FORCE_COLOR: '1' } });
    expect(coloured.stdout).toMatch(ANSI);
    const repo2 = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo2.steps([{ implement: true, completeWhenDone: true }]);
    const plain = await runRalph(repo2, ['run'], { env: { NO_COLOR: '1', FORCE_COLOR: '1' } });
    expect(plain.stdout).not.toMatch(ANSI);
  });
});
