import type { Box } from '../box/open-box.js';
import type { LoopPorts } from '../loop/ports.js';

/**
 * The agent's runs, each followed by the box's sweep of git's redirects and nested repositories; the
 * gates get the same sweep from their place (box-gate-place.ts).
 */
export function sweptAgent(agent: LoopPorts['agent'], box: Box, warn: (line: string) => void): LoopPorts['agent'] {
  return {
    run: async (request) => {
      try {
        return await agent.run(request);
      } finally {
        for (const line of await box.sweep()) warn(line);
      }
    },
  };
}
