import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decideAnswer, decideQuestion, writeDecide } from '../../../src/files/signal-files.js';

describe('decide.txt', () => {
  it('is written in the documented form, with an empty answer', async () => {
    const root = await mkdtemp(join(tmpdir(), 'ralph-unit-'));
    const path = join(root, 'decide.txt');
    await writeDecide(root, path, {
      iteration: 7,
      at: Date.UTC(2026, 5, 15, 14, 30),
      question: 'WebSockets or polling?',
    });
    const text = await readFile(path, 'utf8');
    expect(text).toBe(
      '## Question (from iteration 7, 2026-06-15T14:30:00Z)\nWebSockets or polling?\n\n---\n## Answer\n',
    );
    expect(decideAnswer(text)).toBe('');
    expect(decideQuestion(text)).toBe('WebSockets or polling?');
  });

  it('finds the answer below ---', () => {
    expect(decideAnswer('## Question\nq\n\n---\n## Answer\nUse polling.\n')).toBe('Use polling.');
    expect(decideAnswer('q without separator')).toBe('');
  });
});
