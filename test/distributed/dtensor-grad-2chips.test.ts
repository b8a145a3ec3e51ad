// Backward through DTensor ops on 2 emulated chips (the cases and their float64 reference:
// dtensor-grad-cases.ts): 5 columns split 3, 2.
import { tpu } from 'tpu-kernel/runtime';
import { describeGradCases } from './dtensor-grad-cases.js';

tpu.setDevice({ chips: 2 });
const S0 = tpu.Shard(0);
const S1 = tpu.Shard(1);
const R = tpu.Replicate();

describeGradCases(tpu.initDeviceMesh([2], { names: ['dp'] }), [
  { x: [S0], w: [R], b: [R], a: [S0] },
  { x: [R], w: [S1], b: [S0], a: [S1] },
  { x: [S1], w: [S0], b: [R], a: [R] },
]);
