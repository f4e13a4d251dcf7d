import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appendHookLog, hookFiles, readBlocks, writeBlocks } from '../../../src/hook/hook-files.js';

describe('the hook block count', () => {
  it('counts per run and iteration, starting from 0', async () => {
    const logs = join(await mkdtemp(join(tmpdir(), 'ralph-hook-')), 'ralph/logs');
    const { state } = hookFiles(logs);
    const at = { run: '2026-06-15T14:30:00.000Z', iteration: 3 };
    expect(await readBlocks(state, at)).toBe(0);
    await writeBlocks(state, { ...at, blocks: 2 });
    expect(await readBlocks(state, at)).toBe(2);
    expect(await readBlocks(state, { ...at, iteration: 4 })).toBe(0);
    expect(await readBlocks(state, { ...at, run: '2026-06-16T09:00:00.000Z' })).toBe(0);
  });

  it('fails on a corrupt file, so the hook logs it and allows', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'ralph-hook-')), 'hook-state.json');
    await writeFile(path, '{ nope');
    await expect(readBlocks(path, { run: 'r', iteration: 1 })).rejects.toThrow(SyntaxError);
  });
});

describe('appendHookLog', () => {
  it('appends one timestamped line per call, creating the folder, flattening newlines', async () => {
    const { log } = hookFiles(join(await mkdtemp(join(tmpdir(), 'ralph-hook-')), 'ralph/logs'));
    await appendHookLog(log, new Date('2026-06-15T14:30:00.123Z'), 'first\nline');
    await appendHookLog(log, new Date('2026-06-15T14:31:00Z'), 'second');
    expect(await readFile(log, 'utf8')).toBe('2026-06-15T14:30:00Z first line\n2026-06-15T14:31:00Z second\n');
  });

  it('never throws when the log cannot be written', async () => {
    const file = join(await mkdtemp(join(tmpdir(), 'ralph-hook-')), 'a-file');
    await writeFile(file, '');
    await expect(appendHookLog(join(file, 'hook.log'), new Date(), 'x')).resolves.toBeUndefined();
  });
});
