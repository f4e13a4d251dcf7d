import { describe, expect, it } from 'vitest';
import { detectCi } from '../../../src/process/ci-environment.js';
import { resolveSettings } from '../../../src/config/resolve-settings.js';
import { detectCi as screenDetectCi } from '../../../src/ui/screen.js';

describe('detectCi: one reading of "is this CI"', () => {
  it.each([
    [{}, false],
    [{ CI: '' }, false],
    [{ CI: 'false' }, false],
    [{ CI: 'FALSE' }, false],
    [{ CI: '0' }, false],
    [{ CI: 'true' }, true],
    [{ CI: '1' }, true],
    [{ CI: 'woodpecker' }, true],
    [{ GITHUB_ACTIONS: 'true' }, true],
    [{ GITHUB_ACTIONS: 'true', CI: 'false' }, true],
    [{ GITLAB_CI: 'true' }, true],
    [{ JENKINS_URL: 'https://ci.example' }, true],
    [{ GITLAB_CI: 'true', CI: 'false' }, false],
    [{ CONTINUOUS_INTEGRATION: 'false' }, false],
    [{ GITHUB_ACTIONS: 'false' }, false],
  ] as [NodeJS.ProcessEnv, boolean][])('%o is CI: %s', (env, ci) => {
    expect(detectCi(env).ci).toBe(ci);
    // The screen and the defaults read it the same way.
    expect(screenDetectCi(env).ci).toBe(ci);
    expect(resolveSettings({}, env, {}).settings.onUsageLimit).toBe(ci ? 'stop' : 'wait');
  });

  it('names GitHub Actions in particular', () => {
    expect(detectCi({ GITHUB_ACTIONS: 'true' }).github).toBe(true);
    expect(detectCi({ CI: 'true' }).github).toBe(false);
  });
});
