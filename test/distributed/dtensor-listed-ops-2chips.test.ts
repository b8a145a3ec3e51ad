// DTensor ops from the lists on 2 emulated chips (the cases: dtensor-listed-ops-cases.ts):
// 10 rows split 5, 5; 6 columns 3, 3.
import { tpu } from 'tpu-kernel/runtime';
import { describeListedOps } from './dtensor-listed-ops-cases.js';

tpu.setDevice({ chips: 2 });

describeListedOps(tpu.initDeviceMesh([2], { names: ['dp'] }), [[tpu.Shard(0)], [tpu.Shard(1)], [tpu.Replicate()], [tpu.Partial('sum')]]);
