import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // In CI a test that fails is run once more and both runs are reported: on a 2-core machine
    // the end-to-end tests (real daemons, PostgreSQL, HAProxy) share the cores with each other,
    // and a rare timing failure must not hide behind a green run nor block one. Locally, never.
    retry: process.env.CI === 'true' ? 1 : 0,
  },
});
