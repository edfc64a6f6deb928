import { defineConfig } from 'vitest/config';

// TEST_DB=pglite (default) or postgres: the same API tests run on both engines.
export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
  },
});
