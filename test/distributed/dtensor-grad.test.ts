// Backward through DTensor ops on 4 emulated chips: a [4] mesh and a [2, 2] mesh (the cases
// and their float64 reference: dtensor-grad-cases.ts).
import { tpu } from 'tpu-kernel/runtime';
import { describeGradCases } from './dtensor-grad-cases.js';

tpu.setDevice({ chips: 4 });
const S0 = tpu.Shard(0);
const S1 = tpu.Shard(1);
const R = tpu.Replicate();
const P = tpu.Partial('sum');

describeGradCases(tpu.initDeviceMesh([4], { names: ['dp'] }), [
  { x: [S0], w: [R], b: [R], a: [S0] },
  { x: [R], w: [S1], b: [S0], a: [R] },
  { x: [S1], w: [S0], b: [R], a: [S0] },
  { x: [S0], w: [S0], b: [R], a: [S1] },
  { x: [R], w: [P], b: [P], a: [R] },
]);
describeGradCases(tpu.initDeviceMesh([2, 2], { names: ['dp', 'tp'] }), [
  { x: [S0, R], w: [R, S1], b: [R, S0], a: [S0, R] },
  { x: [S0, S1], w: [R, S0], b: [R, R], a: [R, S0] },
  { x: [R, S0], w: [S0, R], b: [S0, P], a: [S1, S0] },
]);
