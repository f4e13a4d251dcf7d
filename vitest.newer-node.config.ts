import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// .ci/newer-node: the same dist/ on the newest Node line as well as on Node 20. Every unit test, and
// the end-to-end tests of what differs between Node versions: the code cache (Node 22 keeps its
// own), the bundle's loading, process supervision and its endings, the box, `ralph status`. The
// whole end-to-end suite runs on Node 20 (npm test); on both it would not fit CI's 30 minutes.
export default defineConfig({
  test: {
    ...base.test,
    include: [
      'test/unit/**/*.test.ts',
      'test/e2e/compile-cache.test.ts',
      'test/e2e/bundle.test.ts',
      'test/e2e/run.test.ts',
      'test/e2e/endings.test.ts',
      'test/e2e/after-kill.test.ts',
      'test/e2e/box.test.ts',
      'test/e2e/status.test.ts',
    ],
  },
});
