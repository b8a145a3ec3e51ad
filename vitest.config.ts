import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Tests of code that spawns threads or processes import the built package
// (`tpu-kernel/runtime`, `tpu-kernel/kernel` -> dist/), loaded by Node itself.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // One file per core, not Vitest's cores - 1: many files spend their time waiting on the
    // kernels, Jupyter tools, compilers and browsers they spawn, so two overlap on two cores.
    maxWorkers: availableParallelism(),
    setupFiles: ['test/support/event-loop-turn.ts', 'test/support/tensor-equality.ts'],
    // XLA:TPU in the loop costs a CPU per compile: only the tests of it switch it on.
    env: { TPU_KERNEL_TPU_COMPILE: 'off' },
    server: { deps: { external: [/\/dist\//] } },
  },
});
