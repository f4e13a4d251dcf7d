import { defineConfig } from 'vitest/config';

// `npm run test:agents`: the checks against a real agent client installed on this machine (opt-in;
// never part of `npm test`, which has no network, no credentials and no real agent).
export default defineConfig({
  test: {
    include: ['test/real-clients/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 300_000,
    // Two at once: most of a case is waiting (on a client's start, a stream, an idle timeout), and
    // .ci/run must stay under 30 minutes with five clients' whole loops in it.
    maxWorkers: 2,
    // One temporary folder per run, removed at its end (test/helpers/temporary-folder.ts).
    // Then every client installed once, before two files of one client could install it side by side.
    globalSetup: ['test/helpers/temporary-folder.ts', 'test/real-clients/install-all.ts'],
  },
});
