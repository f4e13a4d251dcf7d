import type { ToolOutcome } from '../loop/port-data.js';
import type { ToolResult } from './output/stream-events.js';

/**
 * What the agent's tool calls last returned, by call signature, so a repetition report can say
 * how the repeated call went ("it failed the same way five times"). A result names its call only
 * by id, so each call's signature waits here until its result comes. Both lists are bounded and
 * forget their oldest entries first: an agent that never returns a result cannot grow them.
 */
export class ToolOutcomes {
  /** tool_use id → signature, for calls whose result has not come yet. */
  private readonly awaiting: RecentEntries<string>;
  /** signature → how it went, the newest outcome of each found first. */
  private readonly outcomes: RecentEntries<ToolOutcome>;

  constructor(limits = { awaiting: 1000, outcomes: 100 }) {
    this.awaiting = new RecentEntries(limits.awaiting);
    this.outcomes = new RecentEntries(limits.outcomes);
  }

  /** The agent made a call. */
  called(id: string, signature: string): void {
    this.awaiting.put(id, signature);
  }

  /** A call's result came back. */
  returned({ toolUseId, isError, preview }: ToolResult): void {
    const signature = this.awaiting.take(toolUseId);
    if (signature !== undefined) this.outcomes.put(signature, { isError, preview });
  }

  /** How the last call with this signature went, if its result came. */
  lastOutcome(signature: string): ToolOutcome | undefined {
    return this.outcomes.get(signature);
  }
}

/**
 * The last `capacity` entries written, a key's newest found first, the oldest overwritten by the
 * next. Fixed arrays rather than a Map, though a Map would read shorter: a Map written and deleted
 * from at every tool call rehashes again and again, and V8 links each table it discards to the
 * next. Once one discarded table reaches the old generation, it keeps every later one alive through
 * the young collections, with the calls they hold, until a full collection: that raised the 200 MB
 * stream-json run's peak from about 107 MB to 125–170 MB (bench/RESULTS.md).
 */
class RecentEntries<V> {
  private readonly keys: (string | undefined)[];
  private readonly values: (V | undefined)[];
  private next = 0;

  constructor(private readonly capacity: number) {
    this.keys = new Array<string | undefined>(capacity).fill(undefined);
    this.values = new Array<V | undefined>(capacity).fill(undefined);
  }

  put(key: string, value: V): void {
    this.keys[this.next] = key;
    this.values[this.next] = value;
    this.next = (this.next + 1) % this.capacity;
  }

  get(key: string): V | undefined {
    const index = this.newest(key);
    return index === undefined ? undefined : this.values[index];
  }

  /** The key's newest value, taken out: found once. */
  take(key: string): V | undefined {
    const index = this.newest(key);
    if (index === undefined) return undefined;
    const value = this.values[index];
    this.keys[index] = undefined;
    this.values[index] = undefined;
    return value;
  }

  private newest(key: string): number | undefined {
    // A result usually names the call just made: the search starts at the newest entry.
    for (let back = 1; back <= this.capacity; back++) {
      const index = (this.next - back + this.capacity) % this.capacity;
      if (this.keys[index] === key) return index;
    }
    return undefined;
  }
}
