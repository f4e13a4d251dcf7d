import { describe, expect, it } from 'vitest';
import { RepetitionDetector, type Repetition } from '../../../src/agent/repetition.js';
import { canonicalJson, signatureOfCanonical } from '../../../src/agent/tool-signature.js';

type Call = { name: string; input: unknown };
const A: Call = { name: 'Bash', input: { command: 'npm test' } };
const B: Call = { name: 'Read', input: { file_path: 'src/a.ts' } };
const C: Call = { name: 'Edit', input: { file_path: 'src/a.ts', old_string: 'x', new_string: 'y' } };
const D: Call = { name: 'Grep', input: { pattern: 'TODO' } };

/** Records each call; returns the 1-based positions that completed a repetition, with what was found. */
function feed(detector: RepetitionDetector, calls: Call[]): Array<[number, Repetition]> {
  const found: Array<[number, Repetition]> = [];
  calls.forEach((call, index) => {
    const { repetition } = detector.record(call);
    if (repetition) found.push([index + 1, repetition]);
  });
  return found;
}
const times = (call: Call, count: number): Call[] => Array.from({ length: count }, () => call);
const alternate = (count: number, ...calls: Call[]): Call[] =>
  Array.from({ length: count }, (_, index) => calls[index % calls.length] as Call);

describe('RepetitionDetector: the same call in a row', () => {
  it('reports the call that makes maxRepeats in a row, with tool, signature, count and input', () => {
    expect(feed(new RepetitionDetector({ maxRepeats: 5 }), times(A, 5))).toEqual([
      [
        5,
        {
          tool: 'Bash',
          signature: signatureOfCanonical('Bash', canonicalJson(A.input)),
          count: 5,
          kind: 'consecutive',
          inputPreview: '{"command":"npm test"}',
        },
      ],
    ]);
  });

  it('counts calls whose input keys arrive in another order as the same call', () => {
    const shuffled = [
      { name: 'Edit', input: { file_path: 'x', old_string: 'a', new_string: 'b' } },
      { name: 'Edit', input: { new_string: 'b', file_path: 'x', old_string: 'a' } },
      { name: 'Edit', input: { old_string: 'a', new_string: 'b', file_path: 'x' } },
    ];
    expect(feed(new RepetitionDetector({ maxRepeats: 3 }), shuffled).map(([at, found]) => [at, found.kind])).toEqual([
      [3, 'consecutive'],
    ]);
  });

  it('starts the run again when another call comes between', () => {
    const calls = [...times(A, 4), B, ...times(A, 4)];
    expect(feed(new RepetitionDetector({ maxRepeats: 5 }), calls)).toEqual([]);
  });

  it('does not count the same input under another tool name', () => {
    const calls = alternate(8, { name: 'Read', input: { path: 'x' } }, { name: 'Glob', input: { path: 'x' } });
    expect(feed(new RepetitionDetector({ maxRepeats: 2 }), calls)).toEqual([]);
  });

  it('after a detection, needs maxRepeats fresh calls before reporting again', () => {
    expect(feed(new RepetitionDetector({ maxRepeats: 3 }), times(A, 9)).map(([at]) => at)).toEqual([3, 6, 9]);
  });
});

describe('RepetitionDetector: thrash within the window', () => {
  it('reports A-B-A-B thrash once 20 calls exist and one call holds 10 of them (defaults)', () => {
    const found = feed(new RepetitionDetector({ maxRepeats: 5 }), alternate(20, A, B));
    expect(found).toEqual([[20, expect.objectContaining({ tool: 'Read', kind: 'window', count: 10 })]]);
  });

  it('says nothing before the window is full, however lopsided the calls', () => {
    // Nine A-B pairs and an A: A holds 10 of 19 calls, but 20 calls do not exist yet.
    expect(feed(new RepetitionDetector({ maxRepeats: 5 }), alternate(19, A, B))).toEqual([]);
  });

  it('reports on the call that reaches the share, not on an unrelated call', () => {
    // A holds 10 of the first 19; call 20 is C, so nothing fires until A is called again.
    const calls = [...alternate(19, A, B), C, A];
    expect(
      feed(new RepetitionDetector({ maxRepeats: 5 }), calls).map(([at, found]) => [at, found.tool, found.count]),
    ).toEqual([[21, 'Bash', 10]]);
  });

  it('after reporting thrash, needs the share afresh before reporting the same call again', () => {
    const found = feed(new RepetitionDetector({ maxRepeats: 5 }), alternate(41, A, B));
    expect(found.map(([at, repetition]) => [at, repetition.tool])).toEqual([
      [20, 'Read'],
      [21, 'Bash'],
      [40, 'Read'],
      [41, 'Bash'],
    ]);
  });

  it('lets calls slide out of the window', () => {
    // A takes every third call: never 10 of the last 20.
    expect(feed(new RepetitionDetector({ maxRepeats: 5 }), alternate(300, A, B, C))).toEqual([]);
  });

  it('after a detection resets only that call: the others keep their counts', () => {
    const detector = new RepetitionDetector({ maxRepeats: 100, window: 6, windowShare: 3 });
    const found = feed(detector, alternate(7, A, B));
    // Call 6 (B) fills the window with B three times; call 7 (A) finds A still three times in it.
    expect(found.map(([at, repetition]) => [at, repetition.tool, repetition.count])).toEqual([
      [6, 'Read', 3],
      [7, 'Bash', 3],
    ]);
  });

  it('after a consecutive detection also clears that call from the window', () => {
    const detector = new RepetitionDetector({ maxRepeats: 5, window: 10, windowShare: 5 });
    // Without the clearing, A would hold 7 of the 10 calls at call 11.
    expect(feed(detector, [...times(A, 5), B, A, C, A, D, A]).map(([at, found]) => [at, found.kind])).toEqual([
      [5, 'consecutive'],
    ]);
  });

  it('prefers the consecutive report when both thresholds are reached by the same call', () => {
    const found = feed(new RepetitionDetector({ maxRepeats: 3, window: 3, windowShare: 3 }), times(A, 3));
    expect(found.map(([at, repetition]) => [at, repetition.kind])).toEqual([[3, 'consecutive']]);
  });
});

describe('RepetitionDetector: input preview', () => {
  it('is the canonical input, cut to 200 characters', () => {
    const big = { content: 'x'.repeat(5000), b: 1, a: 2 };
    const [[, found] = []] = feed(new RepetitionDetector({ maxRepeats: 2 }), times({ name: 'Write', input: big }, 2));
    expect(found?.inputPreview.length).toBe(200);
    expect(found?.inputPreview.startsWith('{"a":2,"b":1,"content":"xxx')).toBe(true);
    expect(found?.inputPreview.endsWith('…')).toBe(true);
  });

  it('does not cut a character in half', () => {
    // '{"text":"' is 9 characters, so the first emoji's high surrogate sits exactly at the cut.
    const input = { text: `${'x'.repeat(189)}${'😀'.repeat(20)}` };
    const [[, found] = []] = feed(new RepetitionDetector({ maxRepeats: 2 }), times({ name: 'Write', input }, 2));
    const preview = found?.inputPreview ?? '';
    expect(preview.length).toBeLessThanOrEqual(200);
    expect(preview).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/);
    expect(preview.endsWith('x…')).toBe(true);
  });
});

describe('RepetitionDetector: where the preview is cut', () => {
  /** The preview of a Write whose text is `text`: its canonical input is `{"text":"` (9 characters), the text, `"}`. */
  function previewOf(text: string): string {
    const [[, found] = []] = feed(
      new RepetitionDetector({ maxRepeats: 2 }),
      times({ name: 'Write', input: { text } }, 2),
    );
    return found?.inputPreview ?? '';
  }
  const x = (count: number) => 'x'.repeat(count);

  it('shows an input of exactly 200 characters whole', () => {
    expect(previewOf(x(189))).toBe(`{"text":"${x(189)}"}`);
  });

  it('cuts an input of 201 characters to 199 and an ellipsis', () => {
    expect(previewOf(x(190))).toBe(`{"text":"${x(190)}…`);
  });

  // The 199th character kept is the text's 190th: what stands there decides the cut.
  it.each([
    ['an emoji', '😀'],
    ['the first character past the Basic Multilingual Plane (high surrogate U+D800)', '\u{10000}'],
    ['the last private-use character (high surrogate U+DBFF)', '\u{10FFFD}'],
  ])('leaves out %s that the cut would split, whole', (_name, character) => {
    expect(previewOf(`${x(189)}${character}${'y'.repeat(20)}`)).toBe(`{"text":"${x(189)}…`);
  });

  it('keeps an emoji that ends right at the cut, both halves', () => {
    expect(previewOf(`${x(188)}😀${'y'.repeat(20)}`)).toBe(`{"text":"${x(188)}😀…`);
  });

  it('keeps a character above the surrogates (a full-width "！") at the cut', () => {
    expect(previewOf(`${x(189)}！${'y'.repeat(20)}`)).toBe(`{"text":"${x(189)}！…`);
  });
});

describe('RepetitionDetector: memory and stats', () => {
  it('keeps only the window, however many calls pass', () => {
    const detector = new RepetitionDetector({ maxRepeats: 5 });
    for (let index = 0; index < 10_000; index++) detector.record({ name: 'Bash', input: { command: `echo ${index}` } });
    const inside = detector as unknown as { recent: unknown[] };
    expect(inside.recent.length).toBe(20);
    expect(detector.stats()).toEqual({ calls: 10_000, detections: 0, detectionsByTool: {} });
  });

  it('counts calls and detections per tool', () => {
    const detector = new RepetitionDetector({ maxRepeats: 2 });
    feed(detector, [A, A, B, B, A, A, C]);
    expect(detector.stats()).toEqual({ calls: 7, detections: 3, detectionsByTool: { Bash: 2, Read: 1 } });
  });

  it('hands out a copy of its stats', () => {
    const detector = new RepetitionDetector({ maxRepeats: 2 });
    feed(detector, [A, A]);
    detector.stats().detectionsByTool.Bash = 99;
    expect(detector.stats().detectionsByTool).toEqual({ Bash: 1 });
  });
});

describe('RepetitionDetector: options', () => {
  it.each([
    [{ maxRepeats: 0 }],
    [{ maxRepeats: 2.5 }],
    [{ maxRepeats: Number.NaN }],
    [{ maxRepeats: 5, window: 0 }],
    [{ maxRepeats: 5, windowShare: -1 }],
  ])('refuses %j', (options) => {
    expect(() => new RepetitionDetector(options)).toThrow(RangeError);
  });

  it.each([
    [{ maxRepeats: 0 }, 'maxRepeats must be a whole number ≥ 1, got 0'],
    [{ maxRepeats: 5, window: 2.5 }, 'window must be a whole number ≥ 1, got 2.5'],
    [{ maxRepeats: 5, windowShare: -1 }, 'windowShare must be a whole number ≥ 1, got -1'],
  ])('names the option it refuses and the value it got: %j', (options, message) => {
    expect(() => new RepetitionDetector(options)).toThrow(`RepetitionDetector: ${message}`);
  });

  it('accepts 1 for each: then every call is a repetition', () => {
    const detector = new RepetitionDetector({ maxRepeats: 1, window: 1, windowShare: 1 });
    expect(feed(detector, [A, B]).map(([at, found]) => [at, found.kind])).toEqual([
      [1, 'consecutive'],
      [2, 'consecutive'],
    ]);
  });
});
