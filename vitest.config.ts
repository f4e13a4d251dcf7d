import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The real clients are checked only on request: npm run test:agents (vitest.agents.config.ts).
    exclude: [...configDefaults.exclude, 'test/real-clients/**'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // End-to-end tests spawn real processes; two cores are all this machine has.
    maxWorkers: 2,
    // One temporary folder per run, removed at its end (test/helpers/temporary-folder.ts).
    globalSetup: ['test/helpers/temporary-folder.ts'],
  },
});
