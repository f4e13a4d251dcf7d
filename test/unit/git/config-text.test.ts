import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { configMayMention } from '../../../src/git/config-text.js';
import { realRepository } from './real-repository.js';

/** A repository, a home and a system file of its own: nothing of this machine's configuration. */
async function setUp() {
  const repo = await realRepository('ralph-config-text-');
  const home = await mkdtemp(join(tmpdir(), 'ralph-config-home-'));
  const systemFile = join(home, 'system-gitconfig');
  return { repo, home, env: { HOME: home, PATH: process.env.PATH }, systemFile };
}

describe('configMayMention: what the config files settle without a git', () => {
  it('says no for a repository whose files name no filter, and yes once one does', async () => {
    const { repo, env, systemFile } = await setUp();
    expect(await configMayMention(repo.root, 'filter', { env, systemFile })).toBe(false);
    repo.git('config', 'filter.lfs.clean', 'cat');
    expect(await configMayMention(repo.root, 'filter', { env, systemFile })).toBe(true);
  });

  it('finds the word in any case and in every file git reads: ~/.gitconfig, XDG, a worktree config', async () => {
    const { repo, home, env, systemFile } = await setUp();
    await writeFile(join(home, '.gitconfig'), '[FILTER "x"]\n\tclean = cat\n');
    expect(await configMayMention(repo.root, 'filter', { env, systemFile })).toBe(true);
    await rm(join(home, '.gitconfig'));
    const xdg = join(home, 'xdg');
    await mkdir(join(xdg, 'git'), { recursive: true });
    await writeFile(join(xdg, 'git', 'config'), '[merge "ours"]\n\tdriver = true\n');
    expect(await configMayMention(repo.root, 'merge', { env: { ...env, XDG_CONFIG_HOME: xdg }, systemFile })).toBe(
      true,
    );
    expect(await configMayMention(repo.root, 'filter', { env: { ...env, XDG_CONFIG_HOME: xdg }, systemFile })).toBe(
      false,
    );
    await writeFile(join(repo.root, '.git', 'config.worktree'), '[filter.y]\n\tsmudge = cat\n');
    expect(await configMayMention(repo.root, 'filter', { env, systemFile })).toBe(true);
  });

  it('leaves it to git where the files do not settle it: an include, GIT_CONFIG_*, no .git here', async () => {
    const { repo, home, env, systemFile } = await setUp();
    await writeFile(join(home, '.gitconfig'), `[include]\n\tpath = ${join(home, 'more')}\n`);
    expect(await configMayMention(repo.root, 'filter', { env, systemFile })).toBe(true);
    await rm(join(home, '.gitconfig'));
    expect(await configMayMention(repo.root, 'filter', { env: { ...env, GIT_CONFIG_COUNT: '0' }, systemFile })).toBe(
      true,
    );
    expect(
      await configMayMention(repo.root, 'filter', { env: { ...env, GIT_CONFIG_GLOBAL: '/dev/null' }, systemFile }),
    ).toBe(true);
    expect(
      await configMayMention(repo.root, 'filter', { env: { ...env, GIT_DIR: join(repo.root, '.git') }, systemFile }),
    ).toBe(true);
    await mkdir(join(repo.root, 'sub'));
    expect(await configMayMention(join(repo.root, 'sub'), 'filter', { env, systemFile })).toBe(true);
  });

  it('reads the system file, whatever GIT_CONFIG_NOSYSTEM says (a word too many only asks git)', async () => {
    const { repo, env, systemFile } = await setUp();
    await writeFile(systemFile, '[filter "lfs"]\n\tclean = git-lfs clean -- %f\n');
    expect(await configMayMention(repo.root, 'filter', { env, systemFile })).toBe(true);
    expect(await configMayMention(repo.root, 'filter', { env: { ...env, GIT_CONFIG_NOSYSTEM: '1' }, systemFile })).toBe(
      true,
    );
    expect(await configMayMention(repo.root, 'merge', { env, systemFile })).toBe(false);
  });

  it('a FIFO or a folder where a config file should be is asked of git, and read by nobody', async () => {
    const { repo, home, env, systemFile } = await setUp();
    execFileSync('mkfifo', [join(home, '.gitconfig')]);
    expect(await configMayMention(repo.root, 'filter', { env, systemFile })).toBe(true);
    await rm(join(home, '.gitconfig'));
    await mkdir(join(home, '.gitconfig'));
    expect(await configMayMention(repo.root, 'filter', { env, systemFile })).toBe(true);
  });
});
