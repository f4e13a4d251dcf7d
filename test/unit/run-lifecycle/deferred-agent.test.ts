import { describe, expect, it } from 'vitest';
import type { AgentRunner } from '../../../src/loop/ports.js';
import { deferredAgent } from '../../../src/run-lifecycle/deferred-agent.js';
import type { AgentRequest, AgentRun } from '../../../src/loop/port-data.js';

const finished: AgentRun = {
  exitCode: 0,
  signals: [],
  truncated: false,
  stats: { toolCalls: 0, invalidLines: 0 },
} as unknown as AgentRun;

describe('deferredAgent', () => {
  it('makes no agent until the first iteration needs one', () => {
    let made = 0;
    deferredAgent(async () => (made++, { run: async () => finished }));
    expect(made).toBe(0);
  });

  it('makes the agent once, however many iterations run, and passes each request on', async () => {
    let made = 0;
    const seen: number[] = [];
    const real: AgentRunner = { run: async (request) => (seen.push(request.iteration), finished) };
    const agent = deferredAgent(async () => (made++, real));
    const request = (iteration: number): AgentRequest => ({ iteration, prompt: 'go' });
    expect(await Promise.all([agent.run(request(1)), agent.run(request(2))])).toEqual([finished, finished]);
    await agent.run(request(3));
    expect(made).toBe(1);
    expect(seen).toEqual([1, 2, 3]);
  });

  it('a failure to make it (no agent installed) is the iteration’s error', async () => {
    const agent = deferredAgent(async () => {
      throw new Error('claude not found');
    });
    await expect(agent.run({ iteration: 1, prompt: 'go' })).rejects.toThrow('claude not found');
  });
});
