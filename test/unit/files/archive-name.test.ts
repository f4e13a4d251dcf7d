import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { archiveName, createUniqueDir, localDate, reduceName } from '../../../src/files/archive-name.js';
import { RalphError } from '../../../src/errors.js';

describe('reduceName', () => {
  it.each([
    ['login-page', 'login-page'],
    ['Login Page', 'login-page'],
    ['feature/Sign_Up  v2!', 'feature-sign-up-v2'],
    ['--edge--', 'edge'],
    ['Café', 'caf'],
    ['...', ''],
    ['日本', ''],
  ])('%j → %j', (raw, reduced) => {
    expect(reduceName(raw)).toBe(reduced);
  });
});

describe('archiveName', () => {
  it('takes the branchName without its ralph/ prefix', () => {
    expect(archiveName(undefined, { branchName: 'ralph/Health Check', project: 'shop' })).toBe('health-check');
  });

  it('reduces a branch name with slashes instead of refusing it (only --name is the user typing a path)', () => {
    expect(archiveName(undefined, { branchName: 'feature/login' })).toBe('feature-login');
  });

  it('falls back to the project, then to "project"', () => {
    expect(archiveName(undefined, { project: 'My Shop' })).toBe('my-shop');
    expect(archiveName(undefined, { branchName: 'ralph/日本', project: '!!' })).toBe('project');
    expect(archiveName(undefined, {})).toBe('project');
  });

  it('prefers --name, reduced', () => {
    expect(archiveName('Sprint 12', { branchName: 'ralph/x' })).toBe('sprint-12');
  });

  it.each(['../../etc', '/', '..', '.', 'a/b', 'a\\b', '/etc/passwd', ' .. '])(
    'refuses the path-like --name %j with exit 64',
    (name) => {
      expect(() => archiveName(name, {})).toThrow(RalphError);
      expect(() => archiveName(name, {})).toThrow(/looks like a path/);
    },
  );

  it.each(['', '!!!', '   ', '日本'])('refuses --name %j, which reduces to nothing', (name) => {
    let error: unknown;
    try {
      archiveName(name, { project: 'fine' });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(RalphError);
    expect((error as RalphError).kind).toBe('usage');
  });
});

describe('localDate', () => {
  it('is the local calendar date, zero-padded', () => {
    expect(localDate(new Date(2026, 0, 5, 23, 59))).toBe('2026-01-05');
    expect(localDate(new Date(2026, 10, 30, 0, 0))).toBe('2026-11-30');
  });
});

describe('createUniqueDir', () => {
  it('creates the base name, then -2, -3 for each taken one, leaving existing folders alone', async () => {
    const parent = join(await mkdtemp(join(tmpdir(), 'ralph-unique-')), 'archive');
    expect(await createUniqueDir(parent, '2026-01-05-x')).toBe(join(parent, '2026-01-05-x'));
    await writeFile(join(parent, '2026-01-05-x', 'tasks.json'), 'old');
    expect(await createUniqueDir(parent, '2026-01-05-x')).toBe(join(parent, '2026-01-05-x-2'));
    await mkdir(join(parent, '2026-01-05-x-3'));
    expect(await createUniqueDir(parent, '2026-01-05-x')).toBe(join(parent, '2026-01-05-x-4'));
    expect(await readdir(join(parent, '2026-01-05-x'))).toEqual(['tasks.json']);
  });
});

describe('createUniqueDir when the parent is not a folder', () => {
  it('is a set-up error naming the path', async () => {
    const root = await mkdtemp(join(tmpdir(), 'ralph-unique-'));
    await writeFile(join(root, 'archive'), 'a file');
    await expect(createUniqueDir(join(root, 'archive'), 'x')).rejects.toMatchObject({
      kind: 'setup',
      message: expect.stringContaining('archive'),
    });
  });
});
