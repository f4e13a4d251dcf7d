import { mkdtemp, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ActiveLock } from '../../../src/files/active-lock.js';
import { createLoopFiles } from '../../../src/files/loop-files.js';
import { readLoopHeads } from '../../../src/files/loop-heads.js';
import { ralphPaths } from '../../../src/files/paths.js';
import { withRecords } from '../../../src/files/record-paths.js';

/** The loop's files over a fresh ralph/ folder, its records in `records` (relative to the root). */
async function loopFilesIn(records: string) {
  const root = await mkdtemp(join(tmpdir(), 'ralph-loop-files-'));
  await mkdir(join(root, 'ralph'));
  await mkdir(join(root, dirname(records)), { recursive: true });
  const paths = withRecords(ralphPaths(root), join(root, records));
  const lock = new ActiveLock(paths.active, {
    pid: 42,
    startedAt: '2026-01-01T00:00:00Z',
    iteration: 0,
    thisRun: 0,
    maxIterations: 5,
    stuckCount: 0,
    mode: 'implement',
  });
  return { paths, files: createLoopFiles(paths, join(root, 'ralph/prompt.md'), lock, 'list') };
}

describe('createLoopFiles: .ralph-active', () => {
  it('records the usage windows as they come and keeps them across iterations', async () => {
    const { paths, files } = await loopFilesIn('.git/ralph');
    // The lock is described once, then once more a line for each change: the last line is the run as it is.
    const read = async () =>
      JSON.parse((await readFile(paths.active, 'utf8')).trimEnd().split('\n').at(-1)!) as Record<string, unknown>;

    await files.writeActive({ iteration: 1, thisRun: 1, maxIterations: 5, stuckCount: 0, mode: 'implement' });
    // Two updates without waiting between them: both land, in order, whole.
    const first = files.writeUsage([{ window: 'five_hour', utilization: 0.5 }]);
    await files.writeUsage([{ window: 'five_hour', utilization: 0.92, resetsAt: 1 }]);
    await first;
    expect(await read()).toMatchObject({
      pid: 42,
      iteration: 1,
      usage: [{ window: 'five_hour', utilization: 0.92, resetsAt: 1 }],
    });

    await files.writeActive({ iteration: 2, thisRun: 2, maxIterations: 5, stuckCount: 1, mode: 'implement' });
    expect(await read()).toMatchObject({ iteration: 2, usage: [{ window: 'five_hour', utilization: 0.92 }] });
  });
});

describe('createLoopFiles: review rejections', () => {
  it('counts stories named __proto__, toString and constructor like any other, across reads of state.json', async () => {
    const { paths, files } = await loopFilesIn('.git/ralph');
    const counts: number[] = [];
    for (const id of ['__proto__', 'toString', '__proto__', 'constructor', 'US-1', '__proto__'])
      counts.push(await files.recordReviewRejection(id));
    expect(counts).toEqual([1, 1, 2, 1, 1, 3]);
    const stored = JSON.parse(await readFile(paths.records.state, 'utf8')) as { reviewRejections: unknown };
    expect(JSON.stringify(stored.reviewRejections)).toBe('{"__proto__":3,"toString":1,"constructor":1,"US-1":1}');
  });
});

describe('createLoopFiles: loop heads', () => {
  it('records each move of the branch in the record folder the run was given', async () => {
    // Not a repository: the record folder comes from the paths, not from asking git again.
    const { paths, files } = await loopFilesIn('records/ralph');
    const [first, second] = ['a'.repeat(40), 'b'.repeat(40)];
    await files.recordHead({ branch: 'ralph/list', from: null, to: first });
    await files.recordHead({ branch: 'ralph/list', from: first, to: second });
    expect(await readLoopHeads(paths.records.dir)).toEqual({ state: 'read', heads: { 'ralph/list': second } });
  });
});

describe('createLoopFiles: what an iteration writes', () => {
  it('writes the snapshot and the approvals seen only when they changed', async () => {
    const { paths, files } = await loopFilesIn('.git/ralph');
    const inode = async (path: string) => (await stat(path)).ino;
    await writeFile(paths.tasks, '{"stories":[]}\n');
    await files.snapshotTasks();
    await files.recordSeenApprovals(['US-1']);
    const [snapshot, state] = [await inode(paths.records.tasksSnapshot), await inode(paths.records.state)];
    await files.snapshotTasks();
    await files.recordSeenApprovals(['US-1']);
    // Not replaced: a rename would have given each a new inode.
    expect([await inode(paths.records.tasksSnapshot), await inode(paths.records.state)]).toEqual([snapshot, state]);
    await writeFile(paths.tasks, '{"stories":[{"id":"US-2"}]}\n');
    await files.snapshotTasks();
    await files.recordSeenApprovals(['US-1', 'US-2']);
    expect(await readFile(paths.records.tasksSnapshot, 'utf8')).toBe('{"stories":[{"id":"US-2"}]}\n');
    expect(JSON.parse(await readFile(paths.records.state, 'utf8'))).toMatchObject({ seenApprovals: ['US-1', 'US-2'] });
  });
});

describe('createLoopFiles: mode guides', () => {
  it("gives each guide's text as shipped, every time it is asked, and fails a missing one each time", async () => {
    const { files } = await loopFilesIn('.git/ralph');
    const shipped = await readFile(new URL('../../../templates/modes/review.md', import.meta.url), 'utf8');
    expect(await files.readModeGuide('review')).toBe(shipped);
    expect(await files.readModeGuide('review')).toBe(shipped);
    const policy = await readFile(new URL('../../../templates/modes/review-policy.md', import.meta.url), 'utf8');
    expect(await files.readModeGuide('review-policy')).toBe(policy);
    const missing = 'no-such-guide' as Parameters<typeof files.readModeGuide>[0];
    await expect(files.readModeGuide(missing)).rejects.toThrow(/ENOENT/);
    await expect(files.readModeGuide(missing)).rejects.toThrow(/ENOENT/);
  });
});
