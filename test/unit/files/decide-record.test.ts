import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { askedDecideState, readDecideExchange, rememberQuestion } from '../../../src/files/decide-record.js';
import { ralphPaths } from '../../../src/files/paths.js';
import { withRecords, type RunPaths } from '../../../src/files/record-paths.js';

const made: string[] = [];
afterEach(async () => {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

async function repository(): Promise<RunPaths> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'ralph-decide-record-')));
  made.push(root);
  await mkdir(join(root, 'ralph'));
  await mkdir(join(root, '.git'));
  return withRecords(ralphPaths(root), join(root, '.git/ralph'));
}

describe('reading ralph/decide.txt, which the agent can replace', () => {
  it('refuses a FIFO at once, naming it, where a plain read would wait for a writer forever', async () => {
    const paths = await repository();
    execFileSync('mkfifo', [paths.decide]);
    const refused = { kind: 'io', message: expect.stringContaining('decide.txt is a FIFO (named pipe)') };
    await expect(askedDecideState(paths, 'ralph/tasks.json')).rejects.toMatchObject(refused);
    await expect(rememberQuestion(paths, 'ralph/tasks.json')).rejects.toMatchObject(refused);
    await expect(readDecideExchange(paths.decide)).rejects.toMatchObject(refused);
  });

  it('refuses a link, so a file outside the box never reaches the next prompt', async () => {
    const paths = await repository();
    const secret = join(paths.root, 'secret');
    await writeFile(secret, 'question\n---\nthe key\n');
    await symlink(secret, paths.decide);
    await expect(readDecideExchange(paths.decide)).rejects.toMatchObject({
      kind: 'io',
      message: expect.stringContaining('decide.txt is a symbolic link'),
    });
    await expect(askedDecideState(paths, 'ralph/tasks.json')).rejects.toMatchObject({ kind: 'io' });
  });

  it('reads a regular file as before: answered only when ralph asked the question', async () => {
    const paths = await repository();
    await writeFile(paths.decide, '## Question\nwhich?\n\n---\n## Answer\n');
    await rememberQuestion(paths, 'ralph/tasks.json');
    expect(await askedDecideState(paths, 'ralph/tasks.json')).toBe('pending');
    await writeFile(paths.decide, '## Question\nwhich?\n\n---\n## Answer\nthis one\n');
    expect(await askedDecideState(paths, 'ralph/tasks.json')).toBe('answered');
    await writeFile(paths.decide, '## Question\nanother?\n\n---\n## Answer\nthis one\n');
    expect(await askedDecideState(paths, 'ralph/tasks.json')).toBe('none');
  });
});
