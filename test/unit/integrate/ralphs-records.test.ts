import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RalphError } from '../../../src/errors.js';
import { recordLoopHead } from '../../../src/files/loop-heads.js';
import { moveBranch } from '../../../src/git/integration-branch.js';
import { recordDir, sharedRecordDir } from '../../../src/git/record-dir.js';
import { integrate, type IntegrateOptions } from '../../../src/integrate/integrate.js';
import { readIntegrations } from '../../../src/integrate/integration-records.js';
import { judgeLoopCommits } from '../../../src/integrate/loop-commits.js';
import { gateEnvironment } from '../../../src/run-lifecycle/agent-environment.js';
import { realRepository } from '../git/real-repository.js';

// Integration decides from ralph's own records, never from what any process sharing .git can write.

const INTO = 'ralph/integration/test';

async function project() {
  const repo = await realRepository('ralph-records-');
  const { root, git } = repo;
  await writeFile(join(root, '.gitignore'), 'ralph/worktrees/\nralph/logs/\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'initial');
  /** A loop's finished branch; its loop's record of its head when `recorded`. */
  const loopBranch = async (name: string, recorded = true) => {
    git('switch', '-q', '-c', `ralph/${name}`, 'main');
    await mkdir(join(root, 'ralph'), { recursive: true });
    await writeFile(
      join(root, 'ralph/tasks.json'),
      JSON.stringify({ stories: [{ id: 'S', title: 's', passes: true }] }),
    );
    await writeFile(join(root, `${name}.txt`), `${name}\n`);
    git('add', '-A');
    git('commit', '-q', '-m', `${name} work`);
    git('switch', '-q', 'main');
    const head = git('rev-parse', `ralph/${name}`);
    if (recorded) await recordLoopHead(await recordDir(root), { branch: `ralph/${name}`, from: null, to: head });
  };
  const options = (names: string[], more: Partial<IntegrateOptions> = {}): IntegrateOptions => ({
    root,
    lists: names.map((name) => ({ name, branch: `ralph/${name}`, dependsOn: [] })),
    into: INTO,
    worktree: join(root, 'ralph/worktrees/ralph-integration-test'),
    gates: [],
    env: gateEnvironment(process.env),
    ...more,
  });
  return { ...repo, loopBranch, options };
}

describe('integrate: an integration branch is ralph’s by its record', () => {
  it('refuses a branch whose only claim is a forged Ralph-Integration trailer, moving nothing', async () => {
    const { git, loopBranch, options } = await project();
    await loopBranch('api');
    const forged = git(
      'commit-tree',
      '-p',
      'main',
      '-m',
      'ralph: integration branch',
      '-m',
      'Ralph-Integration: start',
      'main^{tree}',
    );
    git('branch', INTO, forged);
    const refused = await integrate(options(['api'])).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(RalphError);
    expect((refused as RalphError).message).toMatch(
      /ralph has no record of making its commit .*trailer.* is no record/,
    );
    expect(git('rev-parse', INTO)).toBe(forged);
  });

  it('records each commit it makes before the branch points at it, and carries on from its record', async () => {
    const { root, git, loopBranch, options } = await project();
    await loopBranch('api');
    const gates = [{ name: 'ok', command: 'true', timeoutMs: 30_000 }];
    const first = await integrate(options(['api'], { gates }));
    const entries = await readIntegrations(await sharedRecordDir(root));
    expect(entries.map(({ kind, lists, gated }) => ({ kind, lists, gated }))).toEqual([
      { kind: 'start', lists: [], gated: false },
      { kind: 'merge', lists: ['api'], gated: true },
    ]);
    expect(entries[1]).toMatchObject({ commit: first.head, branch: INTO });
    expect(git('rev-parse', INTO)).toBe(first.head);
    await loopBranch('ui');
    const second = await integrate(options(['api', 'ui']));
    expect(second.lists.map(({ state }) => state)).toEqual(['already_in', 'merged']);
  });

  it('leaves the branch where it was when the gates fail: the worktree alone saw the merge', async () => {
    const { git, loopBranch, options } = await project();
    await loopBranch('api');
    const result = await integrate(options(['api'], { gates: [{ name: 'no', command: 'exit 1', timeoutMs: 30_000 }] }));
    expect(result.lists[0]).toMatchObject({ state: 'gate_failed' });
    expect(git('rev-parse', INTO)).toBe(result.head);
    expect(git('rev-list', '--count', `main..${INTO}`)).toBe('1');
  });
});

describe('integrate: the branch moves only as ralph expects it', () => {
  it('refuses to move a branch someone moved meanwhile, leaving their move in place', async () => {
    const { root, git } = await project();
    git('branch', 'moved');
    const theirs = git('commit-tree', '-p', 'main', '-m', 'theirs', 'main^{tree}');
    git('update-ref', 'refs/heads/moved', theirs);
    const ours = git('commit-tree', '-p', 'main', '-m', 'ours', 'main^{tree}');
    const refused = await moveBranch(root, 'moved', {
      to: ours,
      expected: git('rev-parse', 'main'),
      why: 'test',
    }).catch((error: unknown) => error);
    expect((refused as RalphError).message).toMatch(/^branch moved moved while ralph integrated/);
    expect(git('rev-parse', 'moved')).toBe(theirs);
  });

  it('carries on in a worktree an earlier ralph left on the integration branch, detaching it', async () => {
    const { git, loopBranch, options } = await project();
    await loopBranch('api');
    const first = await integrate(options(['api']));
    const { worktree } = options([]);
    git('-C', worktree, 'switch', '-q', INTO);
    await loopBranch('ui');
    const second = await integrate(options(['api', 'ui']));
    expect(second.lists.map(({ state }) => state)).toEqual(['already_in', 'merged']);
    expect(git('-C', worktree, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('HEAD');
    expect(git('rev-parse', INTO)).toBe(second.head);
    expect(git('merge-base', '--is-ancestor', first.head, second.head)).toBe('');
  });
});

describe('integrate: a loop branch holds only what its loop recorded', () => {
  it('leaves out a branch with a commit its loop never made, naming it', async () => {
    const { root, git, loopBranch, options } = await project();
    await loopBranch('api');
    await loopBranch('ui');
    git('switch', '-q', 'ralph/ui');
    await writeFile(join(root, 'planted.txt'), 'planted\n');
    git('add', '-A');
    git('commit', '-q', '-m', 'planted by another loop');
    git('switch', '-q', 'main');
    const planted = git('rev-parse', 'ralph/ui');
    const result = await integrate(options(['api', 'ui']));
    expect(result.lists.map(({ state }) => state)).toEqual(['merged', 'unreported']);
    expect(result.lists[1]).toMatchObject({
      why: `1 commit its loop never made (${planted.slice(0, 7)} "planted by another loop")`,
    });
    expect(git('ls-tree', '--name-only', INTO).split('\n')).not.toContain('planted.txt');
  });

  it('merges a branch no loop here recorded, saying its commits are not checked', async () => {
    const { loopBranch, options } = await project();
    await loopBranch('api', false);
    const warnings: string[] = [];
    const result = await integrate(options(['api'], { onWarning: (line) => warnings.push(line) }));
    expect(result.lists[0]).toMatchObject({ state: 'merged' });
    expect(warnings).toEqual([expect.stringMatching(/^api: no loop here recorded ralph\/api .* not checked/)]);
  });
});

describe('judgeLoopCommits', () => {
  const head = (relation: 'holds' | 'behind' | 'apart', name = relation) => ({ head: name, relation });
  it('is fine when some record holds the tip, whatever the others say', () => {
    expect(judgeLoopCommits([head('behind'), head('holds')], ['damaged'])).toEqual({ state: 'ok' });
  });
  it('names a damaged record before commits beyond a head, and those before a branch gone apart', () => {
    expect(judgeLoopCommits([head('behind')], ['x'])).toEqual({ state: 'damaged', why: 'x' });
    expect(judgeLoopCommits([head('apart'), head('behind')], [])).toEqual({ state: 'beyond', head: 'behind' });
    expect(judgeLoopCommits([head('apart')], [])).toEqual({ state: 'apart', head: 'apart' });
  });
  it('is unrecorded when no loop recorded the branch', () => {
    expect(judgeLoopCommits([], [])).toEqual({ state: 'unrecorded' });
  });
});
