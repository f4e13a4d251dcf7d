import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { archiveCommand } from '../../../src/commands/archive.js';
import { makeRepo } from '../../helpers/e2e.js';

/** Collects what a command writes, in place of stdout. */
function capture() {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stream, text: () => text };
}

describe('archiveCommand: confirming an unfinished task list', () => {
  it('asks, and archives when the answer is yes', async () => {
    const repo = await makeRepo({ stories: [{ id: 'A' }, { id: 'B', passes: true, reviewStatus: 'approved' }] });
    const questions: string[] = [];
    const out = capture();
    const code = await archiveCommand({
      cwd: repo.root,
      confirm: async (question) => (questions.push(question), true),
      stdout: out.stream,
    });
    expect(code).toBe(0);
    expect(questions).toEqual(['1 of 2 stories in ralph/tasks.json is not complete. Archive anyway?']);
    expect(await repo.list('ralph/archive')).toHaveLength(1);
  });

  it('counts a story that passes but waits for its review as not complete, as the run does', async () => {
    const repo = await makeRepo({
      stories: [
        { id: 'A', passes: true, reviewStatus: 'pending' },
        { id: 'B', passes: true, reviewStatus: 'approved' },
      ],
    });
    const questions: string[] = [];
    await archiveCommand({ cwd: repo.root, confirm: async (question) => (questions.push(question), false) });
    expect(questions).toEqual(['1 of 2 stories in ralph/tasks.json is not complete. Archive anyway?']);
  });

  it('archives nothing and exits 1 when the answer is no', async () => {
    const repo = await makeRepo({ stories: [{ id: 'A' }] });
    const tasks = repo.read('ralph/tasks.json');
    const out = capture();
    const code = await archiveCommand({ cwd: repo.root, confirm: async () => false, stdout: out.stream });
    expect(code).toBe(1);
    expect(out.text()).toContain('Nothing archived');
    expect(repo.exists('ralph/archive')).toBe(false);
    expect(repo.read('ralph/tasks.json')).toBe(tasks);
  });

  it('does not ask when every story passes, or with yes', async () => {
    const finished = await makeRepo({ stories: [{ id: 'A', passes: true, reviewStatus: 'approved' }] });
    const unfinished = await makeRepo({ stories: [{ id: 'A' }] });
    const asked: string[] = [];
    const confirm = async (question: string) => (asked.push(question), false);
    const out = capture();
    expect(await archiveCommand({ cwd: finished.root, confirm, stdout: out.stream })).toBe(0);
    expect(await archiveCommand({ cwd: unfinished.root, confirm, yes: true, stdout: out.stream })).toBe(0);
    expect(asked).toEqual([]);
  });

  it('refuses when nobody can be asked', async () => {
    const repo = await makeRepo({ stories: [{ id: 'A' }] });
    await expect(archiveCommand({ cwd: repo.root, confirm: null })).rejects.toMatchObject({ kind: 'setup' });
    expect(repo.exists('ralph/archive')).toBe(false);
  });
});
