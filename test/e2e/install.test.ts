import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_NAME, PACKAGE_VERSION } from '../../src/package-info.js';
import { PACKAGE_ROOT } from '../helpers/e2e.js';
import { tempDirs } from '../helpers/temp-dirs.js';

// These installs may reach the npm registry, as `npm install` itself does; --prefer-offline takes what
// the project's own install left in the cache. Building from a git spec installs the dev dependencies
// in a clone: minutes on a loaded machine.
const NPM_FLAGS = ['--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error'];
const MINUTES = 60_000;
/**
 * Only a guard against an install that hangs: these tests assert what gets installed, never how
 * fast. An install is a synchronous child here, so the test's time is read only once it returns,
 * and a slow but working install on a loaded machine (two CPU hogs beside the suite on two cores)
 * must not fail for it: half an hour each, well past the few minutes seen there.
 */
const HANG_GUARD = { timeout: 30 * MINUTES };

/** Prefixes and clones hold a whole install each: removed after this file. */
const tempDir = tempDirs();

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', [...args, ...NPM_FLAGS], { cwd, encoding: 'utf8', env: cleanNpmEnv() });
}

/** This test runs under `npm test`: the npm_config_* npm sets for it must not reach the installs. */
function cleanNpmEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
}

/** Installs a tarball into an empty prefix, as `npm install -g` does, and runs the installed `ralph`. */
function installAndRun(tarball: string) {
  const prefix = tempDir('ralph-prefix-');
  npm(['install', '-g', '--prefix', prefix, tarball], prefix);
  const ralph = join(prefix, 'bin', 'ralph');
  const run = (args: string[]) =>
    spawnSync(ralph, args, { cwd: prefix, encoding: 'utf8', env: { ...cleanNpmEnv(), NO_COLOR: '1' } });
  return { version: run(['--version']), demo: run(['demo']) };
}

function expectWorkingRalph({ version, demo }: ReturnType<typeof installAndRun>) {
  expect(version.status, version.stderr).toBe(0);
  expect(version.stdout.trim()).toBe(PACKAGE_VERSION);
  expect(demo.status, `${demo.stdout}\n${demo.stderr}`).toBe(0);
}

const tarballName = `${PACKAGE_NAME}-${PACKAGE_VERSION}.tgz`;

describe('installing ralph where the package is not on the registry', () => {
  it(
    "from the tarball `ralph init --ci github --vendor` commits, by the workflow's own install line",
    HANG_GUARD,
    () => {
      const repo = tempDir('ralph-vendored-');
      execFileSync('git', ['init', '-q'], { cwd: repo });
      const init = spawnSync(
        process.execPath,
        [join(PACKAGE_ROOT, 'bin/ralph.cjs'), 'init', '--ci', 'github', '--vendor'],
        {
          cwd: repo,
          encoding: 'utf8',
          env: { ...cleanNpmEnv(), NO_COLOR: '1' },
        },
      );
      expect(init.status, init.stderr).toBe(0);
      const workflow = readFileSync(join(repo, '.github/workflows/ralph.yml'), 'utf8');
      // The install line as the workflow runs it, in the checkout's root, into an empty prefix.
      const line = /^\s*npm install -g (\.\/ralph\/vendor\/\S+\.tgz)\s*$/m.exec(workflow);
      expect(line?.[1]).toBe(`./ralph/vendor/${tarballName}`);
      const prefix = tempDir('ralph-prefix-');
      npm(['install', '-g', '--prefix', prefix, line![1]!], repo);
      const version = spawnSync(join(prefix, 'bin', 'ralph'), ['--version'], { encoding: 'utf8' });
      expect(version.status, version.stderr).toBe(0);
      expect(version.stdout.trim()).toBe(PACKAGE_VERSION);
    },
  );

  it(
    'from the tarball `ralph init --ci github` packs by itself when the pinned version is not on the registry',
    HANG_GUARD,
    () => {
      const repo = tempDir('ralph-unpublished-');
      execFileSync('git', ['init', '-q'], { cwd: repo });
      // The registry's answer is injected: the test means the same with or without a network.
      const init = spawnSync(process.execPath, [join(PACKAGE_ROOT, 'bin/ralph.cjs'), 'init', '--ci', 'github'], {
        cwd: repo,
        encoding: 'utf8',
        env: { ...cleanNpmEnv(), NO_COLOR: '1', RALPH_TEST_REGISTRY_ANSWER: 'missing' },
      });
      expect(init.status, init.stderr).toBe(0);
      expect(init.stdout).toContain(`${PACKAGE_NAME}@${PACKAGE_VERSION} is not on the npm registry`);
      const workflow = readFileSync(join(repo, '.github/workflows/ralph.yml'), 'utf8');
      const line = /^\s*npm install -g (\.\/ralph\/vendor\/\S+\.tgz)\s*$/m.exec(workflow);
      expect(line?.[1]).toBe(`./ralph/vendor/${tarballName}`);
      const prefix = tempDir('ralph-prefix-');
      npm(['install', '-g', '--prefix', prefix, line![1]!], repo);
      const version = spawnSync(join(prefix, 'bin', 'ralph'), ['--version'], { encoding: 'utf8' });
      expect(version.status, version.stderr).toBe(0);
      expect(version.stdout.trim()).toBe(PACKAGE_VERSION);
    },
  );

  it('from the tarball `npm pack` writes', HANG_GUARD, () => {
    const out = tempDir('ralph-pack-');
    // `npm test` has just built dist/; --ignore-scripts keeps pack from building it again.
    npm(['pack', '--ignore-scripts', '--pack-destination', out], PACKAGE_ROOT);
    expect(readdirSync(out)).toEqual([tarballName]);
    expectWorkingRalph(installAndRun(join(out, tarballName)));
  });

  it('from a git tag, by the install line `ralph init --ci github --install <git URL>` writes', HANG_GUARD, () => {
    // The committed HEAD, tagged in a clone of its own: the checkout may hold uncommitted changes.
    const dir = tempDir('ralph-git-');
    const clone = join(dir, 'ralph');
    execFileSync('git', ['clone', '--quiet', '--no-hardlinks', PACKAGE_ROOT, clone]);
    // -f: this checkout may hold the release's own tag already, on another commit.
    execFileSync('git', ['-C', clone, 'tag', '-f', `v${PACKAGE_VERSION}`]);
    const repo = join(dir, 'project');
    execFileSync('git', ['init', '-q', repo]);
    const init = spawnSync(
      process.execPath,
      [
        join(PACKAGE_ROOT, 'bin/ralph.cjs'),
        'init',
        '--ci',
        'github',
        '--install',
        `git+file://${clone}#v${PACKAGE_VERSION}`,
      ],
      { cwd: repo, encoding: 'utf8', env: { ...cleanNpmEnv(), NO_COLOR: '1' } },
    );
    expect(init.status, init.stderr).toBe(0);
    execFileSync('git', ['add', '-A'], { cwd: repo });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'scaffold'], { cwd: repo });
    const workflow = readFileSync(join(repo, '.github/workflows/ralph.yml'), 'utf8');
    const line = /^\s*(npm install -g "\$RUNNER_TEMP.*)$/m.exec(workflow)?.[1];
    expect(line).toBeDefined();
    // Run as the runner runs a step: bash in the checkout, $RUNNER_TEMP outside it, an empty prefix.
    const prefix = tempDir('ralph-prefix-');
    const runnerTemp = tempDir('ralph-runner-temp-');
    execFileSync('bash', ['-eo', 'pipefail', '-c', `${line} ${NPM_FLAGS.join(' ')}`], {
      cwd: repo,
      encoding: 'utf8',
      env: { ...cleanNpmEnv(), RUNNER_TEMP: runnerTemp, npm_config_prefix: prefix },
    });
    // The tarball went to $RUNNER_TEMP: ralph's clean-tree check still passes.
    expect(execFileSync('git', ['status', '--porcelain'], { cwd: repo, encoding: 'utf8' })).toBe('');
    expect(readdirSync(runnerTemp)).toEqual([tarballName]);
    const ralph = join(prefix, 'bin', 'ralph');
    const run = (args: string[]) =>
      spawnSync(ralph, args, { cwd: prefix, encoding: 'utf8', env: { ...cleanNpmEnv(), NO_COLOR: '1' } });
    expectWorkingRalph({ version: run(['--version']), demo: run(['demo']) });
  });

  it('`npm install -g <git URL>` stops at once with the command that works (npm/cli#8440)', HANG_GUARD, () => {
    const dir = tempDir('ralph-git-');
    const clone = join(dir, 'ralph');
    execFileSync('git', ['clone', '--quiet', '--no-hardlinks', PACKAGE_ROOT, clone]);
    // -f: this checkout may hold the release's own tag already, on another commit.
    execFileSync('git', ['-C', clone, 'tag', '-f', `v${PACKAGE_VERSION}`]);
    const prefix = join(dir, 'prefix');
    const result = spawnSync(
      'npm',
      ['install', '-g', '--prefix', prefix, `git+file://${clone}#v${PACKAGE_VERSION}`, ...NPM_FLAGS],
      {
        cwd: dir,
        encoding: 'utf8',
        env: cleanNpmEnv(),
      },
    );
    expect(result.status).not.toBe(0);
    expect(result.stderr).toContain('npm cannot build a git install with -g (npm/cli#8440). Run `npm pack');
  });
});
