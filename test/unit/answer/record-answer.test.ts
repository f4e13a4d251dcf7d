import { describe, expect, it } from 'vitest';
import { decideWithAnswer, resolution } from '../../../src/answer/record-answer.js';
import { aboveSeparator } from '../../../src/answer/waiting.js';
import { decideAnswer, decideQuestion, writeDecide } from '../../../src/files/signal-files.js';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

describe('an answer written into decide.txt', () => {
  it('keeps the question ralph wrote word for word (its fingerprint holds) and reads back as the answer', async () => {
    const root = await mkdtemp(join(tmpdir(), 'ralph-answer-'));
    const path = join(root, 'ralph/decide.txt');
    await writeDecide(root, path, { iteration: 4, at: Date.UTC(2026, 0, 2, 3, 4, 5), question: 'REST\nor gRPC?' });
    const asked = await readFile(path, 'utf8');
    const answered = decideWithAnswer(aboveSeparator(asked), 'gRPC.\n\nWith REST for the browser.');
    expect(answered).toBe(
      '## Question (from iteration 4, 2026-01-02T03:04:05Z)\nREST\nor gRPC?\n\n---\n## Answer\ngRPC.\n\nWith REST for the browser.\n',
    );
    expect(decideQuestion(answered)).toBe(decideQuestion(asked));
    expect(decideAnswer(answered)).toBe('gRPC.\n\nWith REST for the browser.');
  });

  it('replaces an earlier answer rather than adding below it', () => {
    const earlier = '## Question\nWhich?\n\n---\n## Answer\nThe first.\n';
    expect(decideWithAnswer(aboveSeparator(earlier), 'The second.')).toBe(
      '## Question\nWhich?\n\n---\n## Answer\nThe second.\n',
    );
  });
});

describe('the resolution of a BLOCKED in progress.txt', () => {
  it('quotes the reason line by line, escape sequences shown, never obeyed', () => {
    expect(resolution('no key\n\u001b[2Jcleared', 'Added it.', Date.UTC(2026, 0, 2))).toBe(
      '## Unblocked by a human (2026-01-02T00:00:00Z)\nThe loop was blocked (ralph/blocked.txt):\n> no key\n> ␛[2Jcleared\n\nResolution:\nAdded it.\n',
    );
  });
});
