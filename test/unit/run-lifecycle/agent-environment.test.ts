import { describe, expect, it } from 'vitest';
import { agentEnvironment } from '../../../src/run-lifecycle/agent-environment.js';

describe('agentEnvironment', () => {
  const runner = {
    GITHUB_ENV: '/r/env',
    GITHUB_PATH: '/r/path',
    GITHUB_OUTPUT: '/r/out',
    GITHUB_STEP_SUMMARY: '/r/sum',
    GITHUB_STATE: '/r/state',
    GITHUB_TOKEN: 'ghs_x',
    GH_TOKEN: 'ghs_y',
    ACTIONS_RUNTIME_TOKEN: 't',
    ACTIONS_ID_TOKEN_REQUEST_URL: 'u',
    ACTIONS_ID_TOKEN_REQUEST_TOKEN: 't',
    ACTIONS_CACHE_URL: 'c',
    CLAUDECODE: '1',
  };

  it("drops the runner's file commands and tokens, keeps the rest", () => {
    const env = agentEnvironment({ ...runner, PATH: '/bin', GITHUB_ACTIONS: 'true', GITHUB_SHA: 'abc', HOME: '/h' });
    expect(env).toEqual({ PATH: '/bin', GITHUB_ACTIONS: 'true', GITHUB_SHA: 'abc', HOME: '/h' });
  });

  it('lets no config in the work tree add them back, whatever their case', () => {
    const env = agentEnvironment({ PATH: '/bin' }, { GITHUB_ENV: '/x', actions_runtime_token: 't', MY_VAR: 'kept' });
    expect(env).toEqual({ PATH: '/bin', MY_VAR: 'kept' });
  });
});
