// tpu.distributed: the functional collectives and tensor parallelism (parallelizeModule and its styles).
export * from './functional-collectives.js';
export { ColwiseParallel, ParallelStyle, RowwiseParallel, parallelizeModule } from './tensor-parallel.js';
