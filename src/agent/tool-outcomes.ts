import type { ToolOutcome } from '../loop/port-data.js';
import type { ToolResult } from './output/stream-events.js';

/**
 * What the agent's tool calls last returned, by call signature, so a repetition report can say
 * how the repeated call went ("it failed the same way five times"). A result names its call only
 * by id, so each call's signature waits here until its result comes. Both maps are bounded and
 * forget their oldest entries first: an agent that never returns a result cannot grow them.
 */
export class ToolOutcomes {
  /** tool_use id → signature, for calls whose result has not come yet. */
  private readonly awaiting = new Map<string, string>();
  private readonly outcomes = new Map<string, ToolOutcome>();

  constructor(private readonly limits = { awaiting: 1000, outcomes: 100 }) {}

  /** The agent made a call. */
  called(id: string, signature: string): void {
    setBounded(this.awaiting, id, signature, this.limits.awaiting);
  }

  /** A call's result came back. */
  returned({ toolUseId, isError, preview }: ToolResult): void {
    const signature = this.awaiting.get(toolUseId);
    if (signature === undefined) return;
    this.awaiting.delete(toolUseId);
    setBounded(this.outcomes, signature, { isError, preview }, this.limits.outcomes);
  }

  /** How the last call with this signature went, if its result came. */
  lastOutcome(signature: string): ToolOutcome | undefined {
    return this.outcomes.get(signature);
  }
}

/** Sets a key as the newest entry (a Map keeps insertion order) and drops the oldest beyond `limit`. */
function setBounded<K, V>(map: Map<K, V>, key: K, value: V, limit: number): void {
  map.delete(key);
  map.set(key, value);
  if (map.size > limit) map.delete(map.keys().next().value as K);
}
