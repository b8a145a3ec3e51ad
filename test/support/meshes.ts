// The 4-chip session most DTensor tests share: 4 emulated chips (set before any tensor), a 1-d
// [4] mesh named 'dp', a 2-d [2, 2] mesh named 'dp' x 'tp', and the placements they use.
import { tpu } from 'tpu-kernel/runtime';

tpu.setDevice({ chips: 4 });

export const mesh = tpu.initDeviceMesh([4], { names: ['dp'] });
export const mesh2d = tpu.initDeviceMesh([2, 2], { names: ['dp', 'tp'] });
export const S0 = tpu.Shard(0);
export const S1 = tpu.Shard(1);
export const R = tpu.Replicate();
