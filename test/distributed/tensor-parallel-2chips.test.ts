// Tensor-parallel training of the spirals MLP on 2 emulated chips against one chip (the cases
// of tensor-parallel-cases.ts; the 4-chip ones are in tensor-parallel.test.ts).
import { tpu } from 'tpu-kernel/runtime';
import { describeTensorParallel } from './tensor-parallel-cases.js';

tpu.setDevice({ chips: 2 });
describeTensorParallel([tpu.initDeviceMesh([2], { names: ['tp'] })]);
