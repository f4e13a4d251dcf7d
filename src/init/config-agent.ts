import { indentOf, isObject, parseJson } from '../files/json-text.js';
import type { Merged } from '../files/merged.js';

/**
 * `ralph init --agent <kind> --force` on a config that exists: the flag names `agent.kind`, so that
 * key is set and every other one kept (the gates, the limits, the rest of `agent`). A file that is
 * not a JSON object, or whose `agent` is not one, is left as it is with what to do.
 */
export function setAgentKind(existing: string, kind: string): Merged {
  const parsed = parseJson(existing);
  const config = parsed.ok ? parsed.value : undefined;
  const problem = !parsed.ok
    ? `is not valid JSON (${parsed.error})`
    : !isObject(config)
      ? 'is not a JSON object'
      : config.agent !== undefined && !isObject(config.agent)
        ? 'has an "agent" that is not an object'
        : undefined;
  if (problem !== undefined || !isObject(config))
    return {
      text: existing,
      added: [],
      warning: `ralph/config.json ${problem ?? 'is not a JSON object'}: left it as it is. Set "agent": {"kind": "${kind}"} in it yourself.`,
    };
  const agent = (config.agent ?? {}) as Record<string, unknown>;
  if (agent.kind === kind) return { text: existing, added: [] };
  const updated = { ...config, agent: { ...agent, kind } };
  return { text: `${JSON.stringify(updated, null, indentOf(existing))}\n`, added: [`agent.kind: ${kind}`] };
}

/** The kind a config names, when it is readable and names one. */
export function agentKindIn(text: string | undefined): string | undefined {
  const parsed = text === undefined ? undefined : parseJson(text);
  const config = parsed?.ok ? parsed.value : undefined;
  const agent = isObject(config) ? config.agent : undefined;
  return isObject(agent) && typeof agent.kind === 'string' ? agent.kind : undefined;
}
