import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // No retries, in CI or anywhere: a test that fails once is a race to find, not to rerun.
    retry: 0,
  },
});
