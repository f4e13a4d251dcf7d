import type { Box } from '../box/open-box.js';
import type { LoopPorts } from '../loop/ports.js';

/** The line for a redirect the agent made, which ralph took away after its command. */
function sweptLine(path: string): string {
  return `the box removed ${path}, which the agent made: git outside the box would have followed it to a config of the agent's`;
}

/** The agent's runs, each followed by the box's sweep of git's redirects (git-redirects.ts). */
export function sweptAgent(agent: LoopPorts['agent'], box: Box, warn: (line: string) => void): LoopPorts['agent'] {
  return {
    run: async (request) => {
      try {
        return await agent.run(request);
      } finally {
        for (const path of await box.sweep()) warn(sweptLine(path));
      }
    },
  };
}

/** The gates' rounds, each followed by the same sweep: a gate runs the agent's code. */
export function sweptGates(
  gates: NonNullable<LoopPorts['gates']>,
  box: Box,
  warn: (line: string) => void,
): NonNullable<LoopPorts['gates']> {
  return {
    check: async (request) => {
      try {
        return await gates.check(request);
      } finally {
        for (const path of await box.sweep()) warn(sweptLine(path));
      }
    },
  };
}
