import { defineConfig } from 'vitest/config';

// `npm run test:agents`: the checks against a real agent client installed on this machine (opt-in;
// never part of `npm test`, which has no network, no credentials and no real agent).
export default defineConfig({
  test: {
    include: ['test/real-clients/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 300_000,
    maxWorkers: 1,
    // One temporary folder per run, removed at its end (test/helpers/temporary-folder.ts).
    globalSetup: ['test/helpers/temporary-folder.ts'],
  },
});
