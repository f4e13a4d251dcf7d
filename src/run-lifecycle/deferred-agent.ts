import type { AgentRunner } from '../loop/ports.js';

/**
 * An agent runner made when the first iteration needs it: a run with nothing left to do (and
 * gates that pass) never looks the agent up, so it needs no agent installed.
 */
export function deferredAgent(make: () => Promise<AgentRunner>): AgentRunner {
  let made: Promise<AgentRunner> | undefined;
  return { run: async (request) => (await (made ??= make())).run(request) };
}
