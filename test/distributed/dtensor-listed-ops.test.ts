// DTensor ops from the lists on 4 emulated chips: a [4] mesh and a [2, 2] mesh, with Shard,
// Replicate and Partial inputs (the cases: dtensor-listed-ops-cases.ts).
import { tpu } from 'tpu-kernel/runtime';
import { describeListedOps } from './dtensor-listed-ops-cases.js';
import { mesh, mesh2d, S0, S1, R } from '../support/meshes.js';

const P = tpu.Partial('sum');

describeListedOps(mesh, [[S0], [S1], [R], [P]]);
describeListedOps(mesh2d, [[S0, S1], [P, S1]]);
