import { chmod, cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mkdtemp } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { setupFixHint } from '../../src/agent/claude/hints.js';
import { parseTasks } from '../../src/files/tasks.js';
import { makeProject, makeRepo, PACKAGE_ROOT, runRalph, type Repo } from '../helpers/e2e.js';

// What a new user meets on the first day (issue 18): each case the issue lists, end to end.

const isRoot = process.getuid?.() === 0;
/** PATH without the fake claude: as on a machine where Claude Code is not installed. */
const NO_AGENT = { PATH: process.env.PATH ?? '' };
const template = (name: string) => readFile(join(PACKAGE_ROOT, 'templates', name), 'utf8');

async function tasksWithBranch(branchName: string, passes = false): Promise<Repo> {
  const tasks = { project: 'e2e', branchName, stories: [{ id: 'US-1', title: 'One', priority: 1, passes }] };
  return makeRepo({ tasksText: JSON.stringify(tasks, null, 2) });
}

describe('preflight: what can be checked before the first call', () => {
  it.runIf(isRoot)(
    'as root without IS_SANDBOX refuses Claude Code with exit 64 and the hint the real refusal gets, calling nothing',
    async () => {
      const repo = await makeRepo();
      const result = await runRalph(repo, ['run'], { env: { IS_SANDBOX: undefined } });
      expect(result.code).toBe(64);
      expect(result.stderr).toBe(`ralph: running as root without IS_SANDBOX — ${setupFixHint()}\n`);
      expect(repo.calls()).toBe(0);
    },
  );

  it.runIf(isRoot)('as root judges only Claude Code: another agent executable runs', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const wrapper = join(await mkdtemp(join(tmpdir(), 'ralph-agent-')), 'my-agent');
    await writeFile(wrapper, '#!/bin/sh\nexec claude "$@"\n');
    await chmod(wrapper, 0o755);
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run', '--agent-bin', wrapper], { env: { IS_SANDBOX: undefined } });
    expect(result.code).toBe(0);
    expect(repo.calls()).toBe(1);
  });

  it('--dry-run lists every check as ok, warning or FAILED, and exits 64 when one fails', async () => {
    const repo = await makeRepo();
    const ok = await runRalph(repo, ['run', '--dry-run']);
    expect(ok.code).toBe(0);
    for (const name of ['lock', 'task list', 'prompt', 'example', 'signals', 'agent', 'root', 'logs', 'scaffold'])
      expect(ok.stdout).toMatch(new RegExp(`^ {2}ok +${name} `, 'm'));
    // This repository registers no Stop hook: worth a warning, not a refusal.
    expect(ok.stdout).toMatch(/^ {2}warning +stop hook +not in \.claude\/settings\.json/m);
    expect(ok.stdout).toContain('Everything a run needs checks out (one warning above).');

    const missing = await runRalph(repo, ['run', '--dry-run', '--agent-bin', 'no-such-agent']);
    expect(missing.code).toBe(64);
    expect(missing.stdout).toMatch(
      /^ {2}FAILED +agent +agent executable 'no-such-agent' not found on PATH — install Claude Code/m,
    );
    expect(missing.stdout).toContain('1 check fails: a run would stop before its first call.');
    // The configuration is still shown: the point of a dry run is to see everything at once.
    expect(missing.stdout).toMatch(/agentBin +no-such-agent +flag/);
    expect(missing.stderr).toContain("ralph: agent executable 'no-such-agent' not found on PATH");
    expect(repo.calls()).toBe(0);
  });

  it("--dry-run warns while ralph init's scaffold is not committed: the agent's first commit would take it in", async () => {
    const repo = await makeProject({ git: 'committed' });
    expect((await runRalph(repo, ['init'])).code).toBe(0);
    const before = await runRalph(repo, ['run', '--dry-run', '--yes']);
    expect(before.code).toBe(0);
    expect(before.stdout).toMatch(
      /^ {2}warning +scaffold +not committed \(\.claude\/settings\.json, \.gitignore, ralph\/config\.json, ralph\/config\.schema\.json and \d+ more\): the agent's first commit would take it in — git add ralph \.claude\/settings\.json \.gitignore && git commit -m "Set up ralph"$/m,
    );
    repo.git('add', 'ralph', '.claude/settings.json', '.gitignore');
    repo.git('commit', '-q', '-m', 'Set up ralph');
    const after = await runRalph(repo, ['run', '--dry-run', '--yes']);
    expect(after.stdout).toMatch(/^ {2}ok +scaffold +committed$/m);
  });

  it('--dry-run counts the CI workflow init wrote as scaffold: committed with it, or named', async () => {
    const repo = await makeProject({ git: 'committed' });
    expect((await runRalph(repo, ['init', '--ci', 'github'])).code).toBe(0);
    repo.git('add', 'ralph', '.claude/settings.json', '.gitignore');
    repo.git('commit', '-q', '-m', 'Set up ralph, without the workflow');
    const before = await runRalph(repo, ['run', '--dry-run', '--yes']);
    expect(before.stdout).toMatch(
      /^ {2}warning +scaffold +not committed \(\.github\/workflows\/ralph\.yml\): .* git add \.github\/workflows\/ralph\.yml && git commit -m "Set up ralph"$/m,
    );
    repo.git('add', '.github');
    repo.git('commit', '-q', '-m', 'the workflow');
    expect((await runRalph(repo, ['run', '--dry-run', '--yes'])).stdout).toMatch(/^ {2}ok +scaffold +committed$/m);
  });

  it('a real run never refuses over the Stop hook, even when its settings cannot be read', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await mkdir(join(repo.root, '.claude', 'settings.json'), { recursive: true });
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
  });

  it.runIf(isRoot)('--dry-run as root without IS_SANDBOX shows the root check FAILED', async () => {
    const repo = await makeRepo();
    const result = await runRalph(repo, ['run', '--dry-run'], { env: { IS_SANDBOX: undefined } });
    expect(result.code).toBe(64);
    expect(result.stdout).toMatch(/^ {2}FAILED +root +running as root without IS_SANDBOX/m);
  });

  it.runIf(isRoot)(
    'as root with IS_SANDBOX=yes (which Claude Code refuses) the dry run fails naming the value, and a run calls nothing',
    async () => {
      const repo = await makeRepo();
      const dry = await runRalph(repo, ['run', '--dry-run'], { env: { IS_SANDBOX: 'yes' } });
      expect(dry.code).toBe(64);
      expect(dry.stdout).toMatch(
        /^ {2}FAILED +root +running as root with IS_SANDBOX=yes, which Claude Code does not accept .* — set IS_SANDBOX=1 \(exactly 1\)/m,
      );
      const run = await runRalph(repo, ['run'], { env: { IS_SANDBOX: 'yes' } });
      expect(run.code).toBe(64);
      expect(run.stderr).toContain('IS_SANDBOX=yes, which Claude Code does not accept');
      expect(repo.calls()).toBe(0);
    },
  );
});

describe('the example task list', () => {
  it('is refused by ralph run with exit 64 and no call, and run with --yes', async () => {
    const repo = await makeRepo({ tasksText: await template('tasks.json') });
    const refused = await runRalph(repo, ['run', '--no-branch']);
    expect(refused.code).toBe(64);
    expect(refused.stderr).toBe(
      'ralph: ralph/tasks.json is still the example: write your stories (see ralph/prd.md), then remove "example" — or pass --yes to run the example anyway\n',
    );
    expect(repo.calls()).toBe(0);

    await repo.steps([{ implement: true }]);
    const anyway = await runRalph(repo, ['run', '--no-branch', '--yes', '--max-iterations', '1']);
    expect(anyway.code).toBe(1);
    expect(repo.calls()).toBe(1);
  });
});

describe("the task list's branch", () => {
  it('is created from HEAD when missing, said so, named in every prompt, and gets the commits', async () => {
    const repo = await tasksWithBranch('ralph/feature');
    const start = repo.git('rev-parse', '--abbrev-ref', 'HEAD');
    const startHead = repo.git('rev-parse', 'HEAD');
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`created branch ralph/feature from ${start} and switched to it`);
    expect(repo.git('rev-parse', '--abbrev-ref', 'HEAD')).toBe('ralph/feature');
    expect(repo.git('rev-parse', start)).toBe(startHead);
    expect(repo.git('rev-list', '--count', `${start}..ralph/feature`)).toBe('1');
    expect(repo.call(1).prompt).toContain('you are on `ralph/feature`');
  });

  it('is switched to when it exists, and its own task list is the one the run continues', async () => {
    const repo = await tasksWithBranch('ralph/feature');
    const start = repo.git('rev-parse', '--abbrev-ref', 'HEAD');
    repo.git('switch', '-q', '-c', 'ralph/feature');
    const done = {
      project: 'e2e',
      branchName: 'ralph/feature',
      stories: [{ id: 'US-1', title: 'One', priority: 1, passes: true }],
    };
    await repo.write('ralph/tasks.json', JSON.stringify(done));
    repo.git('commit', '-q', '-am', 'US-1 passes');
    repo.git('switch', '-q', start);
    const result = await runRalph(repo, ['run']);
    expect(result.stdout).toContain(`switched to branch ralph/feature from ${start}`);
    // That branch's list is complete: nothing to do, no agent call.
    expect(result.code).toBe(0);
    expect(repo.calls()).toBe(0);
  });

  it('refuses a branchName git does not take, in the dry run as in the run, calling nothing', async () => {
    const repo = await tasksWithBranch('my feature');
    const dry = await runRalph(repo, ['run', '--dry-run']);
    expect(dry.code).toBe(64);
    expect(dry.stdout).toMatch(
      /FAILED +branch +ralph\/tasks\.json: branchName "my feature" is not a valid git branch name/,
    );
    const result = await runRalph(repo, ['run']);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('branchName "my feature" is not a valid git branch name — fix branchName');
    expect(repo.calls()).toBe(0);
  });

  it('warns, in the dry run and the run, that a detached HEAD would leave the commits on no branch', async () => {
    const repo = await makeRepo();
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    repo.git('checkout', '-q', '--detach');
    const dry = await runRalph(repo, ['run', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/warning +branch +HEAD is detached: the loop's commits will be on no branch/);
    const result = await runRalph(repo, ['run']);
    expect(result.stdout).toContain("warning: HEAD is detached: the loop's commits will be on no branch");
    expect(result.code).toBe(0);
  });

  it('is not switched to when git refuses (local changes it would overwrite): exit 64, nothing touched', async () => {
    const repo = await tasksWithBranch('ralph/feature');
    const start = repo.git('rev-parse', '--abbrev-ref', 'HEAD');
    await repo.write('notes.txt', 'main\n');
    repo.git('add', 'notes.txt');
    repo.git('commit', '-q', '-m', 'notes');
    repo.git('switch', '-q', '-c', 'ralph/feature');
    await repo.write('notes.txt', 'feature\n');
    repo.git('commit', '-q', '-am', 'notes on the branch');
    repo.git('switch', '-q', start);
    await repo.write('notes.txt', 'my uncommitted edit\n');
    // Allowed dirty: the branch switch itself must refuse (without the flag, the work tree check refuses first).
    // The dry run says so first, where it once said that everything checks out.
    const dry = await runRalph(repo, ['run', '--allow-dirty', '--dry-run']);
    expect(dry.code).toBe(64);
    expect(dry.stdout).toMatch(
      /FAILED +branch +cannot switch to branch ralph\/feature: your local changes to notes\.txt would be overwritten by checkout/,
    );
    const result = await runRalph(repo, ['run', '--allow-dirty']);
    expect(result.code).toBe(64);
    expect(result.stderr).toMatch(
      /^ralph: cannot switch to branch ralph\/feature: Your local changes to the following files would be overwritten by checkout: notes\.txt — commit or stash your changes/,
    );
    expect(repo.git('rev-parse', '--abbrev-ref', 'HEAD')).toBe(start);
    expect(repo.read('notes.txt')).toBe('my uncommitted edit\n');
    expect(repo.calls()).toBe(0);
    expect(repo.exists('ralph/.ralph-active')).toBe(false);
  });

  it.each([
    ['--no-branch', ['--no-branch'], {}],
    ['RALPH_BRANCH=0', [], { RALPH_BRANCH: '0' }],
    ['config "branch": false', [], {}, { branch: false }],
  ] as const)('is left alone with %s', async (_name, flags, env, config?: unknown) => {
    const repo = await tasksWithBranch('ralph/feature');
    if (config) {
      await repo.write('ralph/config.json', JSON.stringify(config));
      repo.git('add', '-A');
      repo.git('commit', '-q', '-m', 'config');
    }
    const start = repo.git('rev-parse', '--abbrev-ref', 'HEAD');
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run', ...flags], { env });
    expect(result.code).toBe(0);
    expect(repo.git('rev-parse', '--abbrev-ref', 'HEAD')).toBe(start);
    expect(repo.git('branch', '--list', 'ralph/feature')).toBe('');
    expect(repo.call(1).prompt).not.toContain('ralph/feature');
  });

  it('is shown by ralph status, with the branch checked out', async () => {
    const repo = await tasksWithBranch('ralph/feature');
    const start = repo.git('rev-parse', '--abbrev-ref', 'HEAD');
    const before = await runRalph(repo, ['status']);
    expect(before.stdout).toContain(
      `Branch    ${start} — the task list's branchName is ralph/feature: ralph run switches to it`,
    );
    repo.git('switch', '-q', '-c', 'ralph/feature');
    const after = await runRalph(repo, ['status', '--json']);
    expect(JSON.parse(after.stdout).branch).toEqual({ current: 'ralph/feature', tasks: 'ralph/feature' });
  });
});

describe('a repository without ralph/', () => {
  it('is refused by run and report, which write nothing into it, however often asked', async () => {
    const repo = await makeProject({ git: 'committed' });
    for (const args of [['run'], ['run'], ['run', '--dry-run'], ['report']]) {
      const result = await runRalph(repo, args);
      expect(result.code).toBe(64);
      expect(result.stderr).toMatch(/run `ralph init`/);
    }
    expect(repo.exists('ralph')).toBe(false);
    expect(repo.calls()).toBe(0);
  });

  it('a misspelt key in the task list is named, in the dry run and at the run’s start, and the run goes on', async () => {
    const tasks = { project: 'e2e', stories: [{ id: 'US-1', title: 'One', priority: 1, pases: true }] };
    const repo = await makeRepo({ tasksText: JSON.stringify(tasks, null, 2) });
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const warning = 'ralph/tasks.json has keys ralph does not read: stories[0]: "pases" (did you mean "passes"?)';
    const dry = await runRalph(repo, ['run', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toMatch(/warning +task list +ralph\/tasks\.json: 1 story; /);
    expect(dry.stdout).toContain(warning);
    const result = await runRalph(repo, ['run']);
    expect(result.stdout).toContain(`warning: ${warning}`);
    expect(result.code).toBe(0);
  });

  it('a --tasks file that does not exist is named, with where the lists are shown', async () => {
    const repo = await makeRepo();
    const result = await runRalph(repo, ['run', '--tasks', 'ralph/lists/nope.json']);
    expect(result.code).toBe(64);
    expect(result.stderr).toBe(
      'ralph: ralph/lists/nope.json not found — check the task list named by --tasks, RALPH_TASKS or config.json (`ralph lists` shows the lists)\n',
    );
  });
});

describe('coming from ralph.sh', () => {
  const FIXTURE = join(PACKAGE_ROOT, 'test/fixtures/ralph-sh/scripts/ralph');

  async function ralphShProject() {
    const repo = await makeProject({ git: 'committed' });
    await mkdir(join(repo.root, 'scripts'));
    await cp(FIXTURE, join(repo.root, 'scripts/ralph'), { recursive: true });
    repo.git('add', '-A');
    repo.git('commit', '-q', '-m', 'ralph.sh');
    return repo;
  }

  async function snapshot(dir: string): Promise<Record<string, string>> {
    const names = (await readdir(dir)).sort();
    return Object.fromEntries(
      await Promise.all(names.map(async (name) => [name, await readFile(join(dir, name), 'utf8')] as const)),
    );
  }

  it('ralph run names the import command when only the ralph.sh layout is there', async () => {
    const repo = await ralphShProject();
    const result = await runRalph(repo, ['run']);
    expect(result.code).toBe(64);
    expect(result.stderr).toBe(
      'ralph: ralph/tasks.json not found — import the ralph.sh files with `ralph init --from scripts/ralph`\n',
    );
  });

  it('ralph init --from imports prd.json, progress.txt and the old prompt, notes what differs, and changes nothing there', async () => {
    const repo = await ralphShProject();
    const old = join(repo.root, 'scripts/ralph');
    const before = await snapshot(old);
    const result = await runRalph(repo, ['init', '--from', 'scripts/ralph']);
    expect(result.code).toBe(0);
    expect(await snapshot(old)).toEqual(before);
    expect(repo.read('ralph/tasks.json')).toBe(before['prd.json']);
    expect(repo.read('ralph/progress.txt')).toBe(before['progress.txt']);
    expect(repo.read('ralph/prompt.legacy.md')).toBe(before['prompt.md']);
    expect(repo.read('ralph/prompt.md')).toBe(await template('prompt.md'));
    expect(result.stdout).toContain('Imported from scripts/ralph (nothing there was changed):');
    expect(result.stdout).toContain('your prompt.md is kept as ralph/prompt.legacy.md');
    expect(result.stdout).toContain('it mentions Amp threads');
    expect(result.stdout).not.toContain('"example": true');

    // The imported list keeps its stories, ids, passes and branch, and ralph runs it as it is.
    const parsed = parseTasks(repo.read('ralph/tasks.json'));
    expect(parsed.ok && parsed.tasks.stories.map((story) => [story.id, story.passes])).toEqual([
      ['US-001', true],
      ['US-002', false],
      ['US-003', false],
      ['4', false],
    ]);
    expect(parsed.ok && parsed.tasks.branchName).toBe('ralph/task-priority');
    const dry = await runRalph(repo, ['run', '--dry-run']);
    expect(dry.code).toBe(0);
  });

  it('never overwrites what is already in ralph/, not even with --force; --reset imports again after a backup', async () => {
    const repo = await ralphShProject();
    await runRalph(repo, ['init', '--from', 'scripts/ralph']);
    await repo.write('ralph/tasks.json', '{"stories":[{"id":"MINE"}]}');
    const again = await runRalph(repo, ['init', '--from', 'scripts/ralph']);
    expect(again.code).toBe(0);
    expect(repo.read('ralph/tasks.json')).toBe('{"stories":[{"id":"MINE"}]}');
    const forced = await runRalph(repo, ['init', '--from', 'scripts/ralph', '--force']);
    expect(forced.code).toBe(0);
    expect(repo.read('ralph/tasks.json')).toBe('{"stories":[{"id":"MINE"}]}');
    const reset = await runRalph(repo, ['init', '--from', 'scripts/ralph', '--reset', 'tasks.json']);
    expect(reset.code).toBe(0);
    expect(repo.read('ralph/tasks.json')).toBe(await readFile(join(FIXTURE, 'prd.json'), 'utf8'));
    const backup = /reset +ralph\/tasks\.json \(the old one is (ralph\/tasks\.json\.bak-\d{4}-\d\d-\d\d)\)/.exec(
      reset.stdout,
    )?.[1];
    expect(backup && repo.read(backup)).toBe('{"stories":[{"id":"MINE"}]}');
  });

  it('takes CLAUDE.md when there is no prompt.md, and refuses a folder without prd.json', async () => {
    const repo = await ralphShProject();
    await cp(join(repo.root, 'scripts/ralph/prompt.md'), join(repo.root, 'scripts/ralph/CLAUDE.md'));
    repo.git('rm', '-q', 'scripts/ralph/prompt.md');
    const result = await runRalph(repo, ['init', '--from', 'scripts/ralph']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('your CLAUDE.md is kept as ralph/prompt.legacy.md');

    const empty = await runRalph(repo, ['init', '--from', 'scripts']);
    expect(empty.code).toBe(64);
    expect(empty.stderr).toContain('ralph: scripts/prd.json not found');
    const elsewhere = await runRalph(repo, ['init', '--from', '/nonexistent']);
    expect(elsewhere.stderr).toContain('ralph: /nonexistent/prd.json not found');
  });

  it('ralph run 10 (the ralph.sh habit) fails with 64 and names the flag; a mistyped option or value gets one line', async () => {
    const repo = await makeRepo();
    const bare = await runRalph(repo, ['run', '10']);
    expect(bare.code).toBe(64);
    expect(bare.stderr).toBe("ralph: unexpected argument '10' for 'run' — did you mean --max-iterations 10?\n");
    const typo = await runRalph(repo, ['run', '--max-iteration', '5']);
    expect(typo.code).toBe(64);
    expect(typo.stderr).toBe(
      "ralph: unknown option '--max-iteration' (did you mean --max-iterations?) — see `ralph run --help`\n",
    );
    const word = await runRalph(repo, ['run', '--max-iterations', 'ten']);
    expect(word.code).toBe(64);
    expect(word.stderr).toBe(
      "ralph: option '--max-iterations <n>' argument 'ten' is invalid: expected a whole number ≥ 1 — see `ralph run --help`\n",
    );
    expect(repo.calls()).toBe(0);
  });
});

describe('nothing left to do', () => {
  it('exits 0 without an agent installed when every story passes and the gates pass', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1', passes: true }] });
    await repo.write('ralph/config.json', JSON.stringify({ gates: [{ name: 'check', command: 'true' }] }));
    const result = await runRalph(repo, ['run'], { env: NO_AGENT });
    expect(result.code).toBe(0);
    expect(repo.lastRun()).toMatchObject({ reason: 'complete', iterations: 0 });
  });

  it('needs the agent after all when the gates fail: then its absence is the set-up error', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1', passes: true }] });
    await repo.write('ralph/config.json', JSON.stringify({ gates: [{ name: 'check', command: 'exit 1' }] }));
    const result = await runRalph(repo, ['run'], { env: NO_AGENT });
    expect(result.code).toBe(64);
    expect(result.stderr).toContain("ralph: agent executable 'claude' not found on PATH");
    expect(repo.exists('ralph/.ralph-active')).toBe(false);
  });
});

describe('ralph init: next steps from where the user is', () => {
  it('starts with installing Claude Code when claude is not on PATH, then log in, stories, commit, run', async () => {
    const repo = await makeProject({ git: 'committed' });
    const result = await runRalph(repo, ['init'], { env: NO_AGENT });
    const steps = result.stdout
      .slice(result.stdout.indexOf('Next steps:'))
      .split('\n')
      .filter((line) => /^ {2}\d\./.test(line));
    expect(steps[0]).toContain('1. Install Claude Code: npm install -g @anthropic-ai/claude-code');
    expect(steps[1]).toContain('Log in to Claude Code');
    expect(steps.join('\n')).toMatch(
      /ralph\/prd\.md[\s\S]*"example": true[\s\S]*git add ralph \.claude\/settings\.json[\s\S]*ralph run/,
    );
  });

  it('leaves the install step out when claude is on PATH', async () => {
    const repo = await makeProject({ git: 'committed' });
    const result = await runRalph(repo, ['init']);
    expect(result.stdout).not.toContain('Install Claude Code');
    expect(result.stdout).toMatch(/ {2}1\. Log in to Claude Code/);
  });
});

describe('trying the loop on your own repository without Claude', () => {
  it('ralph run --agent-bin "$(ralph demo --print-agent-path)" finishes the stories with the bundled scripted agent', async () => {
    const repo = await makeRepo();
    const printed = await runRalph(repo, ['demo', '--print-agent-path']);
    expect(printed.code).toBe(0);
    const agent = printed.stdout.trim();
    expect(agent).toBe(join(PACKAGE_ROOT, 'bin/scripted-agent.js'));
    // Unscripted, the scripted agent does what a good agent does: one story per iteration, then the reviews.
    const env = { RALPH_AGENT_SCRIPT: undefined, RALPH_SKIP_REVIEW: undefined };
    const result = await runRalph(repo, ['run', '--agent-bin', agent], { env });
    expect(result.code).toBe(0);
    expect(repo.lastRun()).toMatchObject({ reason: 'complete', stories: { complete: 2, total: 2 } });
    expect(repo.git('log', '--oneline')).toMatch(/feat: \[US-1\]/);
  });
});
