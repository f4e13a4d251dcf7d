import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// The unit tests alone: what `npm run mutation` runs against every mutant. The end-to-end tests
// spawn the built ralph from dist/, which a mutant never reaches, so they could only slow it down.
// The architecture test reads src/ as text (its floors, its sizes): Stryker rewrites that text to
// plant its mutants, so there the test would fail for every mutant and kill it, proving nothing.
export default defineConfig({
  test: {
    ...base.test,
    include: ['test/unit/**/*.test.ts'],
    exclude: [...configDefaults.exclude, 'test/unit/architecture.test.ts'],
  },
});
