// oneHot's numClasses -1 (PyTorch's default): the class count is the largest index + 1, a value
// only the device knows. Eager modes read it (one sync, as PyTorch does); a traced function
// has no values yet, so tpu.compile asks for the count instead.
import type { Tensor } from '../tensor.js';
import { tracing } from '../jit/trace-record.js';
import { stack } from './concat.js';

export function inferNumClasses(index: Tensor): number {
  if (tracing()) {
    throw new RangeError('oneHot: numClasses -1 (inferred from the largest index) needs the index values, which tpu.compile does not have while tracing: pass numClasses (the output shape must be static)');
  }
  if (index.numel() === 0) throw new RangeError(`oneHot: numClasses -1 cannot be inferred from an empty index (shape [${index.shape.join(', ')}]): pass numClasses`);
  const [lo, hi] = Array.from(stack([index.amin(), index.amax()]).dataSync() as Int32Array | BigInt64Array, Number);
  if (lo! < 0) throw new RangeError(`oneHot: class values must be non-negative; got ${lo}`);
  return hi! + 1;
}
