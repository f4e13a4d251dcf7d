import { describe, expect, it } from 'vitest';
import { plainLastRun, plainTaskList } from '../../../src/files/plain-json-check.js';
import { parseBySchema, parseTasks } from '../../../src/files/tasks.js';
import { seeded } from '../../helpers/seeded-random.js';
import { lastRunSchema } from '../../../src/files/last-run-schema.js';

const story = (extra: Record<string, unknown> = {}) => ({ id: 'US-1', title: 'One', passes: false, ...extra });

/** Task lists the plain check must either read exactly as the schema does, or leave to it. */
const TASK_LISTS: unknown[] = [
  { project: 'p', branchName: 'ralph/x', stories: [story(), story({ id: 'US-2', priority: 2 })] },
  { stories: [{ id: 7 }] },
  { example: true, description: 'd', stories: [story({ extra: { kept: [1, 2] }, notes: 'n' })] },
  { example: false, stories: [story({ reviewStatus: 'approved', reviewCount: 2, reviewFeedback: 'ok' })] },
  { stories: [story({ acceptanceCriteria: ['a', 'b'], description: 'x', zzz: null })], other: { a: 1 } },
  { stories: [story({ passes: true, title: undefined })] },
  { userStories: [story()], dependsOn: ['api', 'db'] },
  { dependsOn: [], stories: [story()] },
  // Each of these the schema refuses (or the plain check is unsure of).
  { stories: [] },
  { stories: [story()], userStories: [story()] },
  { dependsOn: [''], stories: [story()] },
  { dependsOn: 'api', stories: [story()] },
  { stories: [story(), story()] },
  { stories: [story({ id: '' })] },
  { stories: [story({ reviewStatus: 'done' })] },
  { stories: [story({ acceptanceCriteria: ['a', 1] })] },
  { stories: [story({ priority: '1' })] },
  { stories: [story({ passes: 'yes' })] },
  { stories: [[1]] },
  { stories: [null] },
  { stories: 'none' },
  { project: 3, stories: [story()] },
  { example: 'yes', stories: [story()] },
  [],
  null,
  'text',
  JSON.parse('{"stories":[{"id":"a","__proto__":{"passes":true}}]}'),
];

describe('plainTaskList', () => {
  it('agrees with the schema on generated lists, valid and not', () => {
    const random = seeded(26);
    const values: unknown[] = ['', 'x', 0, 2, 1.5, true, false, null, [], ['a'], ['a', 1], 'pending', 'approved', {}];
    const fitting: Record<string, unknown> = {
      ...{ title: 't', description: 'd', acceptanceCriteria: ['a'], priority: 2, passes: true, notes: 'n' },
      ...{ reviewStatus: 'approved', project: 'p', branchName: 'b', example: false, dependsOn: ['a'], zz: 1 },
    };
    const value = (key: string) => (random.chance(0.85) ? fitting[key] : random.pick(values));
    const fields = ['id', 'title', 'description', 'acceptanceCriteria', 'priority', 'passes', 'notes', 'reviewStatus'];
    const item = (index: number): unknown => {
      if (random.chance(0.02)) return random.pick(values);
      const made: Record<string, unknown> = { id: random.chance(0.9) ? `S-${index}` : random.pick(values) };
      for (const field of random.some(fields.slice(1), 0.4)) made[field] = value(field);
      if (random.chance(0.1)) made.extra = random.pick(values);
      return made;
    };
    let read = 0;
    for (let round = 0; round < 1500; round++) {
      const list = Array.from({ length: Math.floor(random.next() * 4) }, (_, index) =>
        item(random.chance(0.9) ? index : 0),
      );
      const json: Record<string, unknown> = { [random.chance(0.8) ? 'stories' : 'userStories']: list };
      for (const key of random.some(['project', 'branchName', 'description', 'example', 'dependsOn', 'zz'], 0.2))
        json[key] = value(key);
      const plain = plainTaskList(json);
      const schema = parseBySchema(json);
      expect(parseTasks(JSON.stringify(json))).toEqual(schema);
      if (plain === undefined) continue;
      read++;
      expect(JSON.stringify(plain), JSON.stringify(json)).toBe(JSON.stringify(schema));
    }
    expect(read).toBeGreaterThan(300);
    expect(read).toBeLessThan(1400);
  });

  it.each(TASK_LISTS.map((json) => [JSON.stringify(json), json]))(
    'reads %s as parseTasks does, or leaves it to parseTasks',
    (_, json) => {
      const plain = plainTaskList(json);
      const schema = parseBySchema(json);
      // What the run reads: the plain value, or the schema's value or message.
      expect(parseTasks(JSON.stringify(json))).toEqual(schema);
      if (plain === undefined) return;
      expect(schema.ok).toBe(true);
      // The same value, keys in the same order.
      expect(JSON.stringify(plain)).toBe(JSON.stringify(schema));
      expect(plain).toEqual(schema);
    },
  );

  it('reads the usual list itself', () => {
    expect(plainTaskList(TASK_LISTS[0])).toBeDefined();
    expect(plainTaskList(TASK_LISTS[1])).toEqual({ ok: true, tasks: expect.anything() as unknown });
  });

  it('leaves every list the schema refuses to the schema, for its message', () => {
    for (const json of TASK_LISTS.slice(8)) expect(plainTaskList(json)).toBeUndefined();
  });
});

const RUN = { reason: 'complete', exitCode: 0, iterations: 3 };

const LAST_RUNS: unknown[] = [
  RUN,
  { ...RUN, detail: 'd', maxIterations: 10, endedAt: 'now', durationSeconds: 4, extra: [1] },
  { zzz: 1, ...RUN, stories: { total: 2, complete: 1, more: true } },
  { ...RUN, agents: { claude: { iterations: 2, costUsd: 0.5, x: 1 }, codex: { iterations: 1 } } },
  // Refused by the schema.
  { ...RUN, reason: 1 },
  { reason: 'complete', iterations: 3 },
  { ...RUN, stories: { complete: 1 } },
  { ...RUN, agents: { claude: { costUsd: 1 } } },
  { ...RUN, agents: [] },
  [],
  null,
];

describe('plainLastRun', () => {
  it.each(LAST_RUNS.map((json) => [JSON.stringify(json), json]))(
    'reads %s as the schema does, or leaves it to the schema',
    (_, json) => {
      const plain = plainLastRun(json);
      const schema = lastRunSchema.safeParse(json);
      if (plain === undefined) {
        expect(LAST_RUNS.indexOf(json)).toBeGreaterThanOrEqual(4);
        return;
      }
      expect(schema.success).toBe(true);
      expect(JSON.stringify(plain)).toBe(JSON.stringify(schema.data));
    },
  );

  it('reads every well-formed report itself', () => {
    for (const json of LAST_RUNS.slice(0, 4)) expect(plainLastRun(json)).toBeDefined();
  });
});
