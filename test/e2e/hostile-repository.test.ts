import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeRepo, runRalph, type Repo } from '../helpers/e2e.js';

/**
 * What the agent leaves in .git/: a core.fsmonitor program, a filter driver for every file, and
 * hooks. Each writes a proof file when something other than the agent itself runs it (the agent's
 * own processes carry RALPH_RUN_MARKER; ralph's git does not), and the fsmonitor then sleeps, as a
 * daemon that never answers would. For the agent's own git they do nothing: its hooks are its own.
 */
async function plantInGitDir(repo: Repo): Promise<string> {
  const proofs = await mkdtemp(join(tmpdir(), 'ralph-proofs-'));
  const program = join(repo.root, '.git', 'planted.sh');
  await writeFile(
    program,
    [
      '#!/bin/sh',
      'if [ -z "$RALPH_RUN_MARKER" ]; then',
      `  echo "$$ $*" >> "${proofs}/ran-$1"`,
      '  [ "$1" = fsmonitor ] && exec sleep 600',
      'fi',
      '[ "$1" = clean ] || [ "$1" = smudge ] && exec cat',
      'exit 0',
      '',
    ].join('\n'),
  );
  await chmod(program, 0o755);
  repo.git('config', 'core.fsmonitor', `${program} fsmonitor`);
  repo.git('config', 'filter.planted.clean', `${program} clean`);
  repo.git('config', 'filter.planted.smudge', `${program} smudge`);
  await writeFile(join(repo.root, '.git/info/attributes'), '* filter=planted\n');
  for (const hook of ['post-checkout', 'reference-transaction', 'post-index-change', 'pre-commit', 'pre-auto-gc']) {
    await writeFile(join(repo.root, '.git/hooks', hook), `#!/bin/sh\nexec ${program} ${hook}\n`);
    await chmod(join(repo.root, '.git/hooks', hook), 0o755);
  }
  return proofs;
}

describe("ralph's own git with the agent's .git/config and hooks", () => {
  it('runs none of them: a start that switches branch and three iterations leave no proof, no process', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }, { id: 'US-2' }, { id: 'US-3' }] });
    const tasks = JSON.parse(repo.read('ralph/tasks.json'));
    await repo.write('ralph/tasks.json', JSON.stringify({ ...tasks, branchName: 'ralph/feature' }, null, 2));
    repo.git('commit', '-q', '-am', 'a branch for the task list');
    const proofs = await plantInGitDir(repo);
    // The planted programs are real: a plain git outside the agent runs them (the fsmonitor would sleep).
    const plainGit = (...args: string[]) => repo.git('-c', 'core.fsmonitor=false', ...args);
    plainGit('switch', '-q', '-c', 'probe');
    plainGit('switch', '-q', '-');
    plainGit('branch', '-q', '-D', 'probe');
    expect(readdirSync(proofs)).toEqual(expect.arrayContaining(['ran-post-checkout', 'ran-reference-transaction']));
    execFileSync('rm', ['-f', ...readdirSync(proofs).map((name) => join(proofs, name))]);

    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(repo.git('branch', '--show-current')).toBe('ralph/feature');
    expect(repo.calls()).toBe(3);
    expect(readdirSync(proofs)).toEqual([]);
  });
});

/** A file outside the repository, standing for ~/.bashrc, and the folder it is in. */
async function outsideFile() {
  const dir = await mkdtemp(join(tmpdir(), 'ralph-outside-'));
  const path = join(dir, 'bashrc');
  await writeFile(path, 'export PATH=/usr/bin\n');
  return { dir, path };
}

describe("ralph's files with the agent's links and FIFOs in their place", () => {
  it.each([
    ['ralph/logs/summary.csv', [{ shell: ['ln -s "$OUTSIDE" ralph/logs/summary.csv'], implement: true }]],
    [
      'ralph/blocked.txt',
      [{ shell: ['ln -s "$OUTSIDE" ralph/blocked.txt'], say: '<promise>BLOCKED:no key</promise>' }],
    ],
    [
      'ralph/decide.txt',
      [{ shell: ['ln -s "$OUTSIDE" ralph/decide.txt'], say: '<promise>DECIDE:REST or GraphQL?</promise>' }],
    ],
  ])('a link at %s is refused (74), naming it and its target; the target is untouched', async (shown, steps) => {
    const repo = await makeRepo();
    const outside = await outsideFile();
    await repo.steps(steps);
    const result = await runRalph(repo, ['run'], { env: { OUTSIDE: outside.path } });
    expect(result.code).toBe(74);
    expect(result.stderr).toContain(
      `ralph: ${shown} is a symbolic link (to ${outside.path}) — ralph writes only regular files it owns; remove the link`,
    );
    expect(await readFile(outside.path, 'utf8')).toBe('export PATH=/usr/bin\n');
    expect(repo.lastRun()).toMatchObject({ reason: 'io_error', exitCode: 74 });
  });

  it.each(['blocked.txt', 'decide.txt'])(
    'a link the last agent left at ralph/%s: the next start refuses it (74), never quoting its target',
    async (name) => {
      const repo = await makeRepo();
      const outside = await outsideFile();
      await symlink(outside.path, join(repo.root, 'ralph', name));
      const result = await runRalph(repo, ['run']);
      expect(result.code).toBe(74);
      expect(result.stderr).toContain(`ralph/${name} is a symbolic link (to ${outside.path})`);
      expect(result.stdout + result.stderr).not.toContain('export PATH');
      expect(JSON.stringify(repo.lastRun())).not.toContain('export PATH');
    },
  );

  it('a linked ralph/logs is refused before the agent is called, and nothing is written beyond it', async () => {
    const repo = await makeRepo();
    const outside = await outsideFile();
    await symlink(outside.dir, join(repo.root, 'ralph/logs'));
    await repo.steps([{ implement: true }]);
    const result = await runRalph(repo, ['run']);
    expect(result.code).toBe(74);
    expect(result.stderr).toContain(`ralph/logs is a symbolic link (to ${outside.dir})`);
    expect(repo.calls()).toBe(0);
    expect(readdirSync(outside.dir)).toEqual(['bashrc']);
  });

  it.each(['ralph/tasks.json', 'ralph/prompt.md'])(
    'a FIFO at %s is refused at once (74), naming it: no read waits on it',
    async (path) => {
      const repo = await makeRepo();
      execFileSync('rm', [join(repo.root, path)]);
      execFileSync('mkfifo', [join(repo.root, path)]);
      await repo.steps([{ implement: true }]);
      const result = await runRalph(repo, ['run'], { timeoutMs: 20_000 });
      expect(result.code).toBe(74);
      expect(result.stderr).toContain(
        `ralph: ${path} is a FIFO (named pipe), not a regular file — ralph reads only regular files; move it away`,
      );
      expect(repo.calls()).toBe(0);
    },
  );

  it('a FIFO the agent puts in place of tasks.json ends the run io_error after its iteration, recorded as such', async () => {
    const repo = await makeRepo();
    await repo.steps([{ commit: true, shell: ['rm ralph/tasks.json && mkfifo ralph/tasks.json'] }]);
    const result = await runRalph(repo, ['run'], { timeoutMs: 20_000 });
    expect(result.code).toBe(74);
    expect(result.stderr).toContain('ralph/tasks.json is a FIFO (named pipe), not a regular file');
    expect(repo.calls()).toBe(1);
    expect(repo.lastRun()).toMatchObject({ reason: 'io_error', exitCode: 74 });
    expect(existsSync(join(repo.root, 'ralph/logs/iteration-001.log'))).toBe(true);
  });
});

describe('iteration numbers in log names the agent chose', () => {
  it('an absurd one is ignored with a warning, and the run numbers its iterations as before', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await mkdir(join(repo.root, 'ralph/logs'));
    await writeFile(join(repo.root, 'ralph/logs/iteration-99999999999999999999.log'), 'planted\n');
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    for (const run of [1, 2]) {
      if (run === 2)
        await repo.write(
          'ralph/tasks.json',
          JSON.stringify({ project: 'e2e', stories: [{ id: 'US-2', title: 'two' }] }),
        );
      if (run === 2) repo.git('commit', '-q', '-am', 'next list');
      // A new list in the file's place drops US-1, which ralph saw: the person says so.
      const result = await runRalph(repo, run === 2 ? ['run', '--accept-removed'] : ['run']);
      expect(result.code).toBe(0);
      expect(result.stdout).toContain(
        'warning: ignored ralph/logs/iteration-99999999999999999999.log: is not an iteration number (a whole number up to 999999999)',
      );
    }
    expect((await repo.logs()).filter((name) => name.endsWith('.log'))).toEqual([
      'iteration-001.log',
      'iteration-002.log',
      'iteration-99999999999999999999.log',
    ]);
  });
});
