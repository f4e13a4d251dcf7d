import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The real clients are checked only on request: npm run test:agents (vitest.agents.config.ts).
    exclude: [...configDefaults.exclude, 'test/real-clients/**'],
    // Guards against a hang, never a measure of speed: on a loaded 2-core machine (two CPU hogs
    // beside the suite) an end-to-end test of several ralph runs took over a minute and failed on
    // the old 60 s alone. A test that asserts a time says so itself, on an injected clock or event.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // End-to-end tests spawn real processes; two cores are all this machine has.
    maxWorkers: 2,
    // One temporary folder per run, removed at its end (test/helpers/temporary-folder.ts).
    globalSetup: ['test/helpers/temporary-folder.ts'],
  },
});
