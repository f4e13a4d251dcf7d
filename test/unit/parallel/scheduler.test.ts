import { describe, expect, it } from 'vitest';
import { schedule, type LoopEnd, type Schedulable } from '../../../src/parallel/scheduler.js';

/** Loops that end when the test says, recording what ran at once. */
function loops(endings: Record<string, LoopEnd> = {}) {
  const started: string[] = [];
  let live = 0;
  let mostAtOnce = 0;
  const waiting = new Map<string, () => void>();
  let stopping: string | undefined;
  return {
    started,
    mostAtOnce: () => mostAtOnce,
    stop: (why: string) => (stopping = why),
    /** Ends the named loop; resolves once the scheduler had a turn. */
    async end(name: string) {
      waiting.get(name)!();
      await new Promise((resolve) => setImmediate(resolve));
    },
    ports: {
      stopping: () => stopping,
      run(list: Schedulable): Promise<LoopEnd> {
        started.push(list.name);
        live++;
        mostAtOnce = Math.max(mostAtOnce, live);
        return new Promise((resolve) =>
          waiting.set(list.name, () => {
            live--;
            resolve(endings[list.name] ?? { exitCode: 0, reason: 'complete' });
          }),
        );
      },
    },
  };
}

const list = (name: string, ...dependsOn: string[]): Schedulable => ({ name, dependsOn });

describe('schedule', () => {
  it('runs at most `jobs` loops at once, starting the next as a slot frees, in list order', async () => {
    const fake = loops();
    const done = schedule([list('a'), list('b'), list('c'), list('d')], 2, fake.ports);
    expect(fake.started).toEqual(['a', 'b']);
    await fake.end('b');
    expect(fake.started).toEqual(['a', 'b', 'c']);
    await fake.end('a');
    await fake.end('c');
    await fake.end('d');
    const outcomes = await done;
    expect(fake.mostAtOnce()).toBe(2);
    expect([...outcomes.keys()].sort()).toEqual(['a', 'b', 'c', 'd']);
    expect(outcomes.get('c')).toEqual({ state: 'ran', exitCode: 0, reason: 'complete' });
  });

  it('starts a list only once its dependencies ended COMPLETE', async () => {
    const fake = loops();
    const done = schedule([list('api'), list('ui', 'api'), list('docs')], 4, fake.ports);
    expect(fake.started).toEqual(['api', 'docs']);
    await fake.end('api');
    expect(fake.started).toEqual(['api', 'docs', 'ui']);
    await fake.end('docs');
    await fake.end('ui');
    expect((await done).get('ui')).toMatchObject({ state: 'ran', reason: 'complete' });
  });

  it('does not start a list whose dependency ended otherwise, nor the lists waiting on that one', async () => {
    const fake = loops({ api: { exitCode: 2, reason: 'blocked' } });
    const done = schedule([list('api'), list('ui', 'api'), list('e2e', 'ui')], 4, fake.ports);
    await fake.end('api');
    const outcomes = await done;
    expect(fake.started).toEqual(['api']);
    expect(outcomes.get('ui')).toEqual({ state: 'not_started', why: 'api ended blocked' });
    expect(outcomes.get('e2e')).toEqual({ state: 'not_started', why: 'ui did not start' });
  });

  it('starts nothing more once the run is stopping, and lets the running loops end', async () => {
    const fake = loops({ a: { exitCode: 130, reason: 'interrupted' } });
    const done = schedule([list('a'), list('b')], 1, fake.ports);
    fake.stop('the run was interrupted (SIGINT)');
    await fake.end('a');
    const outcomes = await done;
    expect(fake.started).toEqual(['a']);
    expect(outcomes.get('a')).toMatchObject({ state: 'ran', exitCode: 130 });
    expect(outcomes.get('b')).toEqual({ state: 'not_started', why: 'the run was interrupted (SIGINT)' });
  });
});
