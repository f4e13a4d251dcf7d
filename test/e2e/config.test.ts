import { readFileSync } from 'node:fs';
import { appendFile, cp, symlink, writeFile } from 'node:fs/promises';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAKE_BIN_DIR, makeRepo, PACKAGE_ROOT, runRalph } from '../helpers/e2e.js';

/** The user's prompt, then the mode section ralph adds. */
const PROMPT_WITH_MODE = expect.stringMatching(/^Implement the next story\.\n\n## This iteration: implement US-1\n/);

describe('ralph run: configuration layers', () => {
  it('takes flag over environment over ralph/config.json over default', async () => {
    const repo = await makeRepo({ stories: ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H'].map((id) => ({ id })) });
    await writeFile(join(repo.root, 'ralph/config.json'), JSON.stringify({ maxIterations: 4, maxStuck: 9 }));
    await repo.steps([{ implement: true }]);
    expect((await runRalph(repo, ['run'])).stdout).toMatch(/Iterations: +4 \/ 4/);
    expect((await runRalph(repo, ['run'], { env: { RALPH_MAX_ITERATIONS: '2' } })).stdout).toMatch(
      /Iterations: +2 \/ 2/,
    );
    const flag = await runRalph(repo, ['run', '--max-iterations', '1'], { env: { RALPH_MAX_ITERATIONS: '2' } });
    expect(flag.stdout).toMatch(/Iterations: +1 \/ 1/);
  });

  it('passes the agent block: extra args, no permission switch, extra environment', async () => {
    const repo = await makeRepo();
    await writeFile(
      join(repo.root, 'ralph/config.json'),
      JSON.stringify({ agent: { args: ['--model', 'opus'], skipPermissions: false, env: { EXTRA: 'yes' } } }),
    );
    await repo.steps([{ implement: true }]);
    await runRalph(repo, ['run', '--max-iterations', '1']);
    expect(repo.call(1).argv).toEqual([
      '-p',
      PROMPT_WITH_MODE,
      '--output-format',
      'stream-json',
      '--verbose',
      '--model',
      'opus',
    ]);
  });

  it.each([
    ['{ "maxIterations": "ten" }', 'ralph/config.json: maxIterations: expected a whole number ≥ 1, got "ten"'],
    ['{ "maxIteration": 3 }', 'ralph/config.json: unknown key "maxIteration" (did you mean "maxIterations"?)'],
  ])('refuses an invalid config with exit 64 and one line: %s', async (text, message) => {
    const repo = await makeRepo();
    await writeFile(join(repo.root, 'ralph/config.json'), text);
    const result = await runRalph(repo, ['run']);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain(message);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    // Nothing else: the run's own lines (its containment) begin once the start checks pass.
    expect(result.stdout).toBe('');
    expect(repo.calls()).toBe(0);
  });

  it('refuses a bad environment value, naming the variable', async () => {
    const repo = await makeRepo();
    const result = await runRalph(repo, ['run'], { env: { RALPH_MAX_STUCK: 'lots' } });
    expect(result.code).toBe(64);
    expect(result.stderr).toContain("environment variable RALPH_MAX_STUCK: expected a whole number ≥ 1, got 'lots'");
  });
});

describe('ralph run --dry-run', () => {
  it('prints every value with its source and the exact agent command, and calls no agent', async () => {
    const repo = await makeRepo();
    await writeFile(
      join(repo.root, 'ralph/config.json'),
      JSON.stringify({ maxStuck: 5, agent: { args: ['--model', 'opus'] } }),
    );
    const result = await runRalph(repo, ['run', '--dry-run', '--max-iterations', '7'], { env: { RALPH_QUIET: '1' } });
    expect(result.code).toBe(0);
    expect(repo.calls()).toBe(0);
    expect(result.stdout).toMatch(/maxIterations +7 +flag/);
    expect(result.stdout).toMatch(/quiet +true +env/);
    expect(result.stdout).toMatch(/maxStuck +5 +config/);
    expect(result.stdout).toMatch(/prompt +ralph\/prompt.md +default/);
    expect(result.stdout).toMatch(/agent\.args +\["--model","opus"\] +config/);
    expect(result.stdout).toMatch(
      /\/test\/fixtures\/bin\/claude -p "\$\(cat ralph\/prompt.md\)" --dangerously-skip-permissions --output-format stream-json --verbose --model opus/,
    );
    expect(repo.exists('ralph/.ralph-active')).toBe(false);
  });

  it('fails like a real run would when something is wrong', async () => {
    const repo = await makeRepo({ tasksText: '{' });
    const result = await runRalph(repo, ['run', '--dry-run']);
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('ralph/tasks.json is not a valid task list');
  });
});

describe('ralph run --quiet', () => {
  it("shows only ralph's own lines and the summary; the log still has the agent's output", async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    await repo.steps([{ say: 'agent chatter\n', stderr: 'agent warning\n', implement: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run', '--quiet']);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('agent chatter');
    expect(result.stderr).not.toContain('agent warning');
    expect(result.stdout).toContain('Iteration 1');
    expect(result.stdout).toContain('Ralph Loop Summary');
    expect(repo.read('ralph/logs/iteration-001.log')).toContain('agent chatter');
  });
});

describe('ralph run --sandbox', () => {
  function dockerCalls(log: string): string[][] {
    return readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as string[]);
  }

  it('runs each iteration through docker sandbox run with a deterministic name', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }, { id: 'US-2' }] });
    const log = join(repo.root, '.docker-calls');
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run', '--sandbox'], { env: { RALPH_DOCKER_LOG: log } });
    expect(result.code).toBe(0);
    const calls = dockerCalls(log);
    expect(calls[0]).toEqual(['sandbox', 'ls']);
    const runs = calls.filter((argv) => argv[1] === 'run');
    expect(runs).toHaveLength(2);
    const name = runs[0]?.[3] ?? '';
    expect(name).toMatch(/^ralph-ralph-e2e-[a-z0-9]+-[0-9a-f]{8}$/);
    expect(runs[0]).toEqual([
      'sandbox',
      'run',
      '--name',
      name,
      'claude',
      repo.root,
      '--',
      '-p',
      PROMPT_WITH_MODE,
      '--dangerously-skip-permissions',
      '--output-format',
      'stream-json',
      '--verbose',
    ]);
    expect(runs[1]?.[3]).toBe(name);
  });

  it('uses the given name', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const log = join(repo.root, '.docker-calls');
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    await runRalph(repo, ['run', '--sandbox', 'my-box'], { env: { RALPH_DOCKER_LOG: log } });
    expect(dockerCalls(log).find((argv) => argv[1] === 'run')?.[3]).toBe('my-box');
  });

  it("exits 64 with docker's message when the sandbox command does not work, never falling back to the host", async () => {
    const repo = await makeRepo();
    const result = await runRalph(repo, ['run', '--sandbox'], { env: { RALPH_FAKE_DOCKER: 'no-sandbox' } });
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('docker: unknown command: docker sandbox');
    expect(repo.calls()).toBe(0);
  });

  it('needs no docker for a run with nothing left to do and no gates: it ends complete, calling nothing', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1', passes: true }] });
    const result = await runRalph(repo, ['run', '--sandbox'], { env: { PATH: '/usr/bin:/bin' } });
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(repo.calls()).toBe(0);
  });

  it('exits 64 when docker is not installed', async () => {
    const repo = await makeRepo();
    const result = await runRalph(repo, ['run', '--sandbox'], { env: { PATH: '/usr/bin:/bin' } });
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('--sandbox needs docker, which is not on PATH');
  });

  it('runs the quality gates inside the sandbox, where the agent ran: never on this machine', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const log = join(repo.root, '.docker-calls');
    // Passes only inside the fake sandbox, which names itself to what it runs.
    const command = 'test "$RALPH_FAKE_SANDBOX" = box && echo "tests pass in $RALPH_FAKE_SANDBOX"';
    await writeFile(join(repo.root, 'ralph/config.json'), JSON.stringify({ gates: [{ name: 'tests', command }] }));
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run', '--sandbox', 'box'], { env: { RALPH_DOCKER_LOG: log } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('✓ tests passed');
    expect(repo.read('ralph/logs/gates-001-tests.log')).toContain('tests pass in box');
    expect(dockerCalls(log)).toContainEqual(['sandbox', 'exec', '--workdir', repo.root, 'box', 'sh', '-c', command]);
  });

  it('shows in the dry run each gate as it will run: inside the sandbox with --sandbox, else with SHELL', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const gates = [
      { name: 'tests', command: 'npm test' },
      { name: 'lint', command: "echo 'lint ok'", after: 'tests', timeout: '5m' },
    ];
    await writeFile(join(repo.root, 'ralph/config.json'), JSON.stringify({ gates }));
    const docker = join(FAKE_BIN_DIR, 'docker');
    const sandboxed = await runRalph(repo, ['run', '--dry-run', '--sandbox', 'box']);
    expect(sandboxed.stdout).toContain(
      [
        'Quality gates, in order (each from the repository root, in its own process group):',
        `  tests: ${docker} sandbox exec --workdir ${repo.root} box sh -c 'npm test' (timeout 10m)`,
        `  lint: ${docker} sandbox exec --workdir ${repo.root} box sh -c 'echo '\\''lint ok'\\''' (after tests, timeout 5m)`,
      ].join('\n'),
    );
    const host = await runRalph(repo, ['run', '--dry-run'], { env: { SHELL: '/bin/bash' } });
    expect(host.stdout).toContain("  tests: /bin/bash -c 'npm test' (timeout 10m)");
    // The gates' shell is ralph's, not the agent's (agent.env is for the agent alone).
    await writeFile(
      join(repo.root, 'ralph/config.json'),
      JSON.stringify({ gates, agent: { env: { SHELL: '/bin/agent-shell' } } }),
    );
    const agentEnv = await runRalph(repo, ['run', '--dry-run'], { env: { SHELL: '/bin/bash' } });
    expect(agentEnv.stdout).toContain("  tests: /bin/bash -c 'npm test' (timeout 10m)");
    const none = await runRalph(repo, ['run', '--dry-run', '--no-gates']);
    expect(none.stdout).toContain('Quality gates: none run (--no-gates).');
    expect(none.stdout).not.toContain('npm test');
  });

  it('stops the sandbox when a gate in it runs past its timeout, and the gate fails as timed out', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const log = join(repo.root, '.docker-calls');
    const gates = [
      { name: 'slow', command: 'exec sleep 120', timeout: '1s' },
      { name: 'lint', command: 'true' },
    ];
    await writeFile(join(repo.root, 'ralph/config.json'), JSON.stringify({ gates, maxGateFailures: 1 }));
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const result = await runRalph(repo, ['run', '--sandbox', 'box'], { env: { RALPH_DOCKER_LOG: log } });
    expect(result.code).toBe(4);
    expect(result.stdout).toMatch(/✗ slow failed \(timed out/);
    expect(result.stdout).toContain('~ lint skipped (slow timed out in the sandbox box, which ralph then stops)');
    const calls = dockerCalls(log);
    const exec = calls.findIndex((argv) => argv[1] === 'exec');
    expect(exec).toBeGreaterThan(-1);
    expect(calls.slice(exec)).toContainEqual(['sandbox', 'stop', 'box']);
  });

  it('warns when ralph itself, or a folder of PATH, is inside the repository the sandbox mounts', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    // This build, copied where a dev dependency would be, its packages linked; git leaves it aside.
    const install = join(repo.root, 'node_modules/ralph-loop-cli');
    for (const part of ['bin', 'dist', 'templates', 'package.json'])
      await cp(join(PACKAGE_ROOT, part), join(install, part), { recursive: true });
    await symlink(join(PACKAGE_ROOT, 'node_modules'), join(install, 'node_modules'));
    await appendFile(join(repo.root, '.git/info/exclude'), '/node_modules/\n');
    const bin = join(install, 'bin/ralph.cjs');
    const inside = /ralph itself \(node_modules\/ralph-loop-cli\) is inside the repository the sandbox mounts/;
    expect((await runRalph(repo, ['run', '--dry-run', '--sandbox', 'box'], { bin })).stdout).toMatch(inside);
    // The run itself says it before it starts, and goes on.
    await repo.steps([{ implement: true, completeWhenDone: true }]);
    const run = await runRalph(repo, ['run', '--sandbox', 'box'], { bin });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`warning: ${inside.source}`));
    // On this machine, without the sandbox, the agent can rewrite anything: nothing to warn of.
    expect((await runRalph(repo, ['run', '--dry-run'], { bin })).stdout).not.toMatch(
      /inside the repository the sandbox/,
    );
    // From outside the repository, with nothing of PATH in it, the sandboxed run has nothing to warn of either.
    expect((await runRalph(repo, ['run', '--dry-run', '--sandbox', 'box'])).stdout).not.toMatch(/sandbox mounts/);
    // npx and npm run put the repository's node_modules/.bin on PATH: a git or docker there is the agent's.
    const npx = await runRalph(repo, ['run', '--dry-run', '--sandbox', 'box'], {
      env: {
        PATH: `${join(repo.root, 'node_modules/.bin')}${delimiter}${FAKE_BIN_DIR}${delimiter}${process.env.PATH}`,
      },
    });
    expect(npx.stdout).toMatch(/PATH's node_modules\/\.bin is inside the repository the sandbox mounts/);
  });

  it('stops the sandbox when ralph is interrupted', async () => {
    const repo = await makeRepo();
    const log = join(repo.root, '.docker-calls');
    await repo.steps([{ say: 'working\n', hang: true }]);
    let sent = false;
    const result = await runRalph(repo, ['run', '--sandbox', 'box'], {
      env: { RALPH_DOCKER_LOG: log },
      onStdout: (text, child) => {
        if (!sent && text.includes('working')) {
          sent = true;
          child.kill('SIGINT');
        }
      },
    });
    expect(result.code).toBe(130);
    expect(dockerCalls(log)).toContainEqual(['sandbox', 'stop', 'box']);
  });

  it('says so, on the screen and in the log, when the sandbox of an agent it stopped could not be stopped', async () => {
    const repo = await makeRepo();
    await repo.steps([{ say: 'working\n', hang: true }]);
    let sent = false;
    const result = await runRalph(repo, ['run', '--sandbox', 'box'], {
      env: { RALPH_FAKE_DOCKER: 'stop-fails' },
      onStdout: (text, child) => {
        if (!sent && text.includes('working')) {
          sent = true;
          child.kill('SIGINT');
        }
      },
    });
    expect(result.code).toBe(130);
    const said = 'could not stop the sandbox box: Error: sandbox box did not stop in time';
    expect(result.stdout).toContain(`warning: ${said}`);
    expect(repo.read('ralph/logs/iteration-001.log')).toContain(`[ralph] ${said}`);
  });

  it('ends the run (64) when the sandbox of an agent it timed out could not be stopped: no next iteration', async () => {
    const repo = await makeRepo();
    await repo.steps([{ say: 'working\n', hang: true }]);
    const result = await runRalph(repo, ['run', '--sandbox', 'box', '--iteration-timeout', '2s'], {
      env: { RALPH_FAKE_DOCKER: 'stop-fails' },
    });
    expect(result.code).toBe(64);
    expect(result.stderr).toContain('could not stop the sandbox box: Error: sandbox box did not stop in time');
    expect(repo.calls()).toBe(1);
  });

  it('reads PATH as ralph finds programs on it: an empty entry is the current folder, a link is followed', async () => {
    const repo = await makeRepo({ stories: [{ id: 'US-1' }] });
    const link = `${repo.root}-link`;
    await symlink(repo.root, link);
    const rest = `${FAKE_BIN_DIR}${delimiter}${process.env.PATH}`;
    // node_modules/.bin not made yet, under a linked path: the agent may make it.
    const linked = await runRalph(repo, ['run', '--dry-run', '--sandbox', 'box'], {
      env: { PATH: `${join(link, 'node_modules/.bin')}${delimiter}${rest}` },
    });
    expect(linked.stdout).toMatch(/PATH's node_modules\/\.bin is inside the repository the sandbox mounts/);
    const empty = await runRalph(repo, ['run', '--dry-run', '--sandbox', 'box'], {
      env: { PATH: `${delimiter}${rest}` },
    });
    expect(empty.stdout).toMatch(/PATH's \. is inside the repository the sandbox mounts/);
  });
});
