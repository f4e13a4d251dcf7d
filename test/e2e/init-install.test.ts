import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../../src/package-info.js';
import { makeProject, runRalph, type Repo } from '../helpers/e2e.js';

// What `ralph init --ci github` installs in CI when nobody said: the registry's answer is injected
// (RALPH_TEST_REGISTRY_ANSWER), so these tests need no network and mean the same wherever they run.

const TARBALL = `ralph/vendor/${PACKAGE_NAME}-${PACKAGE_VERSION}.tgz`;
const VENDORED_LINE = `npm install -g ./${TARBALL}`;
const REGISTRY_LINE = `npm install -g ${PACKAGE_NAME}@${PACKAGE_VERSION}`;
const SINGLE = '.github/workflows/ralph.yml';
const MATRIX = '.github/workflows/ralph-matrix.yml';

function init(repo: Repo, args: string[], registry: 'published' | 'missing' | 'unreachable') {
  return runRalph(repo, ['init', ...args], { env: { RALPH_TEST_REGISTRY_ANSWER: registry }, timeoutMs: 120_000 });
}

/** Every ralph install line of a workflow, without its indent (the agent client's line aside). */
function ralphInstalls(text: string): string[] {
  return [...text.matchAll(/^\s+(?:run: )?(npm install -g (?!"@)\S.*)$/gm)].map((match) => match[1] ?? '');
}

describe('ralph init --ci github installs on day one', () => {
  it.each([
    ['missing', `${PACKAGE_NAME}@${PACKAGE_VERSION} is not on the npm registry`],
    ['unreachable', `ralph could not ask the npm registry for ${PACKAGE_NAME}@${PACKAGE_VERSION}`],
  ] as const)('a version the registry is %s: this ralph is vendored, and init says so', async (registry, said) => {
    const repo = await makeProject({ git: 'committed' });
    const result = await init(repo, ['--ci', 'github'], registry);
    expect(result.code, result.stderr).toBe(0);
    expect(ralphInstalls(repo.read(SINGLE))).toEqual([VENDORED_LINE]);
    expect(repo.exists(TARBALL)).toBe(true);
    expect(result.stdout).toContain(said);
    expect(result.stdout).toContain(`packed into ${TARBALL} (as --vendor does): commit it with the workflow.`);
    expect(result.stdout).toMatch(new RegExp(`created +${TARBALL.replace(/[.]/g, '\\.')}`));
    expect(result.stdout).toContain(
      `git add ralph .claude/settings.json .gitignore ${SINGLE} ${TARBALL} && git commit`,
    );
  });

  it('a published version is installed from the registry, and nothing is packed', async () => {
    const repo = await makeProject({ git: 'committed' });
    const result = await init(repo, ['--ci', 'github', '--matrix'], 'published');
    expect(result.code, result.stderr).toBe(0);
    expect(ralphInstalls(repo.read(MATRIX))).toEqual([REGISTRY_LINE, REGISTRY_LINE, REGISTRY_LINE]);
    expect(repo.exists('ralph/vendor')).toBe(false);
    expect(result.stdout).toContain(`The workflow installs ${PACKAGE_NAME}@${PACKAGE_VERSION} from npm.`);
  });

  it('a workflow ralph wrote for a version since found missing gets the tarball; a line the user changed stays', async () => {
    const repo = await makeProject({ git: 'committed' });
    await init(repo, ['--ci', 'github', '--matrix'], 'published');
    await init(repo, ['--ci', 'github'], 'published');
    // The user points the single workflow elsewhere and edits the matrix one.
    await repo.write(SINGLE, repo.read(SINGLE).replace(REGISTRY_LINE, 'npm install -g ./mine.tgz'));
    const edited = repo.read(MATRIX).replace('timeout-minutes: 180', 'timeout-minutes: 90');
    await repo.write(MATRIX, edited);
    const result = await init(repo, ['--ci', 'github'], 'missing');
    expect(result.code, result.stderr).toBe(0);
    expect(ralphInstalls(repo.read(SINGLE))).toEqual(['npm install -g ./mine.tgz']);
    expect(repo.read(MATRIX)).toBe(edited.replaceAll(REGISTRY_LINE, VENDORED_LINE));
    expect(result.stdout).toContain(`${MATRIX} (added install steps (3): ${VENDORED_LINE})`);
    expect(result.stdout).toContain(`${SINGLE} ${MATRIX} ${TARBALL} && git commit`);
  });

  it('nothing installs the missing version: no registry asked, nothing packed', async () => {
    const repo = await makeProject({ git: 'committed' });
    await init(repo, ['--ci', 'github', '--install', 'github:me/ralph#v1'], 'published');
    const result = await init(repo, ['--ci', 'github'], 'missing');
    expect(result.code, result.stderr).toBe(0);
    expect(repo.exists('ralph/vendor')).toBe(false);
    expect(result.stdout).not.toContain('npm registry');
  });
});

describe('--vendor and --install update every workflow ralph wrote', () => {
  it('--vendor changes all three install lines of the matrix workflow, and the single one', async () => {
    const repo = await makeProject({ git: 'committed' });
    await init(repo, ['--ci', 'github', '--matrix'], 'published');
    await init(repo, ['--ci', 'github'], 'published');
    const result = await init(repo, ['--ci', 'github', '--vendor'], 'published');
    expect(result.code, result.stderr).toBe(0);
    expect(ralphInstalls(repo.read(MATRIX))).toEqual([VENDORED_LINE, VENDORED_LINE, VENDORED_LINE]);
    expect(ralphInstalls(repo.read(SINGLE))).toEqual([VENDORED_LINE]);
    const spec = 'https://example.com/ralph-loop-cli-9.9.9.tgz';
    await init(repo, ['--ci', 'github', '--matrix', '--install', spec], 'published');
    expect(ralphInstalls(repo.read(MATRIX))).toEqual([
      `npm install -g ${spec}`,
      `npm install -g ${spec}`,
      `npm install -g ${spec}`,
    ]);
    expect(ralphInstalls(repo.read(SINGLE))).toEqual([`npm install -g ${spec}`]);
  });

  it("a workflow of the user's at ralph's other path, without ralph's mark, is never touched", async () => {
    const repo = await makeProject({ git: 'committed' });
    await mkdir(join(repo.root, '.github/workflows'), { recursive: true });
    const mine =
      'name: mine\non: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm install -g something@1\n';
    await repo.write(MATRIX, mine);
    const result = await init(repo, ['--ci', 'github', '--vendor'], 'published');
    expect(result.code, result.stderr).toBe(0);
    expect(repo.read(MATRIX)).toBe(mine);
    expect(ralphInstalls(repo.read(SINGLE))).toEqual([VENDORED_LINE]);
  });
});

describe('init says to commit what it wrote', () => {
  it('the first --ci github after a committed scaffold names the workflow in the commit step', async () => {
    const repo = await makeProject({ git: 'committed' });
    await init(repo, [], 'published');
    repo.git('add', '-A');
    repo.git('commit', '-qm', 'Set up ralph');
    const again = await init(repo, [], 'published');
    expect(again.stdout).not.toContain('Commit the scaffold');
    const result = await init(repo, ['--ci', 'github'], 'published');
    expect(result.stdout).toContain(
      `Commit the scaffold: git add ralph .claude/settings.json .gitignore ${SINGLE} && git commit`,
    );
    repo.git('add', '-A');
    repo.git('commit', '-qm', 'The workflow');
    // A committed workflow whose install line init changes is to be committed again.
    const vendored = await init(repo, ['--ci', 'github', '--vendor'], 'published');
    expect(vendored.stdout).toContain(`${SINGLE} ${TARBALL} && git commit`);
  });
});
