// composite(fn): runs a composed op (layerNorm, gelu, softmax, ...). In fused mode the values
// it makes inside are not program outputs even when used twice, so the region's program
// keeps the op's whole subgraph (ONNX Runtime can then fuse it into one kernel) and writes
// only the result. Should such a value be read later (a backward pass), its recipe is
// recomputed from its inputs. In debug and strict mode it just runs fn.
import type { Tensor } from '../tensor.js';
import { activeMode } from './mode.js';
import { markInternalSince, regionMark } from './fused.js';

export function composite(fn: () => Tensor): Tensor {
  if (activeMode() !== 'fused') return fn();
  const mark = regionMark();
  const out = fn();
  markInternalSince(mark, out);
  return out;
}
