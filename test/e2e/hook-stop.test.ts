import { readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { liveLock, makeRepo, runRalph, type RalphResult, type Repo, type StoryInput } from '../helpers/e2e.js';

const STARTED = '2026-06-15T14:30:00.000Z';

/** What Claude Code writes to a Stop hook's stdin. */
function stopInput(cwd: string, stopHookActive = false): string {
  return JSON.stringify({
    session_id: '5f1c2a7e-3b9d-4c21-9e0a-8d6b4f2e1c33',
    transcript_path: '/root/.claude/projects/-tmp-app/5f1c2a7e-3b9d-4c21-9e0a-8d6b4f2e1c33.jsonl',
    cwd,
    hook_event_name: 'Stop',
    stop_hook_active: stopHookActive,
  });
}

/**
 * Simulates `ralph run` at the start of an iteration: the snapshot, and a live `.ralph-active`
 * (this test's own pid).
 */
async function startIteration(
  repo: Repo,
  loop: { iteration: number; mode?: string; story?: string; pid?: number; startTime?: string },
): Promise<void> {
  await repo.write('.git/ralph/tasks-snapshot.json', repo.read('ralph/tasks.json'));
  const owner = { ...(loop.pid ? { pid: loop.pid } : {}), ...(loop.startTime ? { startTime: loop.startTime } : {}) };
  const active = liveLock({
    ...owner,
    startedAt: STARTED,
    iteration: loop.iteration,
    mode: loop.mode ?? 'implement',
    story: loop.story,
  });
  await repo.write('ralph/.ralph-active', JSON.stringify(active, null, 2));
}

async function loopRepo(stories?: StoryInput[], loop: { mode?: string; story?: string } = {}): Promise<Repo> {
  const repo = await makeRepo({ stories });
  await startIteration(repo, { iteration: 1, ...loop });
  return repo;
}

/** The agent edits tasks.json: `change` gets each story and may rewrite it. */
async function editStories(
  repo: Repo,
  change: (story: Record<string, unknown>) => Record<string, unknown> | undefined,
): Promise<void> {
  const tasks = JSON.parse(repo.read('ralph/tasks.json')) as { stories: Record<string, unknown>[] };
  tasks.stories = tasks.stories.map((story) => change(story) ?? story);
  await repo.write('ralph/tasks.json', JSON.stringify(tasks, null, 2));
}

function commitAll(repo: Repo): void {
  repo.git('add', '-A', '--', '.', ':!ralph/.ralph-active', ':!ralph/.tasks-snapshot.json', ':!ralph/logs');
  repo.git('commit', '-q', '-m', 'agent work');
}

/** Claude Code running the hook in the project. */
function stop(repo: Repo, options: { stopHookActive?: boolean } = {}): Promise<RalphResult> {
  return runRalph(repo, ['hook', 'stop'], {
    input: stopInput(repo.root, options.stopHookActive),
    env: { CLAUDE_PROJECT_DIR: repo.root },
  });
}

/** The reason of a block, after checking it is one: exit 0 and the JSON decision on stdout. */
function blockReason(result: RalphResult): string {
  expect(result.code).toBe(0);
  expect(result.stderr).toBe('');
  const output = JSON.parse(result.stdout) as { decision: string; reason: string };
  expect(output.decision).toBe('block');
  return output.reason;
}

function expectAllowed(result: RalphResult): void {
  expect(result).toEqual({ code: 0, stdout: '', stderr: '' });
}

const hookLog = (repo: Repo) =>
  repo.exists('ralph/logs/hook.log') ? repo.read('ralph/logs/hook.log').trim().split('\n') : [];

describe('ralph hook stop: outside a loop', () => {
  it('allows at once and prints nothing when no loop is running', async () => {
    const repo = await makeRepo();
    await repo.write('untracked.txt', 'work\n');
    expectAllowed(await stop(repo));
    expect(repo.exists('ralph/logs')).toBe(false);
  });

  it('allows when .ralph-active was left by a process that is gone', async () => {
    const repo = await makeRepo();
    await startIteration(repo, { iteration: 1, pid: 2 ** 22 + 1 });
    await repo.write('untracked.txt', 'work\n');
    expectAllowed(await stop(repo));
    expect(hookLog(repo)).toEqual([]);
  });

  it('allows when the pid in .ralph-active now belongs to another process (a reused pid)', async () => {
    const repo = await makeRepo();
    // This test's own pid is alive, but it did not start at this time: the loop that wrote the lock is gone.
    await startIteration(repo, { iteration: 1, startTime: '1@another-boot' });
    await repo.write('untracked.txt', 'work\n');
    expectAllowed(await stop(repo));
    expect(hookLog(repo)).toEqual([]);
  });
});

describe('ralph hook stop: during a loop', () => {
  it("allows a stop with one story done and committed; ralph's own untracked files do not count", async () => {
    const repo = await loopRepo();
    await editStories(repo, (story) => (story.id === 'US-1' ? { ...story, passes: true } : undefined));
    await repo.write('feature.ts', 'export const done = true;\n');
    commitAll(repo);
    expect(repo.git('status', '--porcelain')).toContain('?? ralph/.ralph-active');
    expectAllowed(await stop(repo));
  });

  it('blocks on uncommitted changes, naming each file, and logs the block', async () => {
    const repo = await loopRepo();
    await repo.write('ralph/prompt.md', 'edited\n');
    await repo.write('new.txt', 'new\n');
    const reason = blockReason(await stop(repo));
    expect(reason).toBe(
      'Uncommitted changes: ralph/prompt.md, new.txt. Commit them (git add -A && git commit) before stopping.',
    );
    expect(hookLog(repo)).toEqual([
      expect.stringMatching(
        /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ iteration 1 \(implement\): blocked 1\/3: Uncommitted changes: ralph\/prompt\.md, new\.txt\./,
      ),
    ]);
  });

  it('blocks two stories flipped to passes: true in one implement iteration, even committed', async () => {
    const repo = await loopRepo([{ id: 'US-1' }, { id: 'US-2' }, { id: 'US-3' }]);
    await editStories(repo, (story) => (story.id !== 'US-3' ? { ...story, passes: true } : undefined));
    commitAll(repo);
    expect(blockReason(await stop(repo))).toMatch(
      /^2 stories were marked passes: true in one implement iteration \(US-1, US-2\)/,
    );
  });

  it('blocks invalid JSON in tasks.json before anything else', async () => {
    const repo = await loopRepo();
    await repo.write('ralph/tasks.json', '{ "stories": [ { "id": "US-1", } ] }');
    await repo.write('new.txt', 'uncommitted too\n');
    expect(blockReason(await stop(repo))).toMatch(
      /^ralph\/tasks\.json is not valid JSON \(.+\)\. Fix it .* and commit it\.$/,
    );
  });

  it('blocks a removed story', async () => {
    const repo = await loopRepo();
    const tasks = JSON.parse(repo.read('ralph/tasks.json')) as { stories: unknown[] };
    await repo.write('ralph/tasks.json', JSON.stringify({ ...tasks, stories: tasks.stories.slice(0, 1) }));
    commitAll(repo);
    expect(blockReason(await stop(repo))).toMatch(
      /^ralph\/tasks\.json lost story US-2 during the iteration\. Put it back/,
    );
  });

  it("in a review iteration allows the reviewed story's decision and blocks a change to another story", async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1', passes: true }, { id: 'US-2' }] });
    await startIteration(repo, { iteration: 1, mode: 'review', story: 'US-1' });
    await editStories(repo, (story) =>
      story.id === 'US-1'
        ? { ...story, passes: false, reviewStatus: 'changes_requested', reviewFeedback: 'no test for the empty list' }
        : undefined,
    );
    commitAll(repo);
    expectAllowed(await stop(repo));
    await editStories(repo, (story) => (story.id === 'US-2' ? { ...story, title: 'retitled' } : undefined));
    commitAll(repo);
    expect(blockReason(await stop(repo))).toMatch(
      /^In a review iteration only the reviewed story US-1 may change, but story US-2 changed \(title\)/,
    );
  });

  it('finds the repository from the cwd in its input, wherever it is started', async () => {
    const repo = await loopRepo();
    await repo.write('new.txt', 'new\n');
    const result = await runRalph(repo, ['hook', 'stop'], {
      cwd: '..',
      input: stopInput(join(repo.root, 'ralph')),
      env: { CLAUDE_PROJECT_DIR: '' },
    });
    expect(blockReason(result)).toMatch(/^Uncommitted changes: new\.txt\./);
  });
});

describe('ralph hook stop: never traps the agent', () => {
  it('blocks 3 times in one iteration, then allows the 4th attempt and records it', async () => {
    const repo = await loopRepo();
    await repo.write('new.txt', 'never committed\n');
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      expect(blockReason(await stop(repo, { stopHookActive: attempt > 1 }))).toMatch(
        /^Uncommitted changes: new\.txt\./,
      );
    }
    expectAllowed(await stop(repo, { stopHookActive: true }));
    const log = hookLog(repo);
    expect(log).toHaveLength(4);
    expect(log.slice(0, 3).map((line) => /blocked (\d)\/3/.exec(line)?.[1])).toEqual(['1', '2', '3']);
    expect(log[3]).toMatch(
      / iteration 1 \(implement\): allowed stop attempt 4 after 3 blocks this iteration, though: Uncommitted changes: new\.txt\./,
    );
    expect(JSON.parse(repo.read('ralph/logs/hook-state.json'))).toEqual({ run: STARTED, iteration: 1, blocks: 4 });
  });

  it('gives a new iteration a fresh count', async () => {
    const repo = await loopRepo();
    await repo.write('new.txt', 'never committed\n');
    for (let attempt = 1; attempt <= 3; attempt += 1) blockReason(await stop(repo));
    await startIteration(repo, { iteration: 2 });
    expect(blockReason(await stop(repo))).toMatch(/^Uncommitted changes/);
    expect(hookLog(repo).at(-1)).toMatch(/ iteration 2 \(implement\): blocked 1\/3: /);
  });

  it.each([
    ['input that is not JSON', 'not json', /hook error, allowed the stop: stdin is not JSON \(/],
    ['empty input', '', /hook error, allowed the stop: no hook input on stdin/],
  ])('allows on %s and logs it to hook.log', async (_name, input, logged) => {
    const repo = await loopRepo();
    await repo.write('new.txt', 'would be blocked\n');
    expectAllowed(await runRalph(repo, ['hook', 'stop'], { input, env: { CLAUDE_PROJECT_DIR: repo.root } }));
    expect(hookLog(repo)).toEqual([expect.stringMatching(logged)]);
  });

  it('allows and logs when the snapshot is missing or .ralph-active names an unknown mode', async () => {
    const repo = await loopRepo();
    await repo.write('new.txt', 'would be blocked\n');
    unlinkSync(join(repo.root, '.git/ralph/tasks-snapshot.json'));
    expectAllowed(await stop(repo));
    await startIteration(repo, { iteration: 2, mode: 'refactor' });
    expectAllowed(await stop(repo));
    expect(hookLog(repo)).toEqual([
      expect.stringMatching(/hook error, allowed the stop: \.git\/ralph\/tasks-snapshot\.json is missing/),
      expect.stringMatching(/hook error, allowed the stop: ralph\/\.ralph-active has an unknown mode "refactor"/),
    ]);
    expect(readFileSync(join(repo.root, 'new.txt'), 'utf8')).toBe('would be blocked\n');
  });
});
