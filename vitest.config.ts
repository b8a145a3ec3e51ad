import { defineConfig } from 'vitest/config';

// Tests of code that spawns threads or processes import the built package
// (`tpu-kernel/runtime`, `tpu-kernel/kernel` -> dist/), loaded by Node itself.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    server: { deps: { external: [/\/dist\//] } },
  },
});
