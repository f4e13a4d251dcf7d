import { defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// The unit tests alone: what `npm run mutation` runs against every mutant. The end-to-end tests
// spawn the built ralph from dist/, which a mutant never reaches, so they could only slow it down.
export default defineConfig({
  test: { ...base.test, include: ['test/unit/**/*.test.ts'] },
});
