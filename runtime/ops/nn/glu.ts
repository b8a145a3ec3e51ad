// glu: the gated linear unit, the first half of a dim times the sigmoid of the second
// (torch.nn.functional.glu), composed.
import { readOptions } from '../../options.js';
import { formatShape, normalizeDim } from '../../shape.js';
import type { Tensor } from '../../tensor.js';
import { composite } from '../../modes/composite.js';
import { tensorArg } from '../tensor-arg.js';
import { inFloat32 } from './activations.js';

export interface GluOptions {
  /** The dim split in halves (default -1). */
  dim?: number;
}

/**
 * a·σ(b) where a and b are the halves of x along dim (torch.nn.functional.glu; dim -1, whose
 * size must be even).
 * @example tpu.nn.functional.glu(tpu.randn([2, 6])).shape // [2, 3]
 */
export function glu(x: Tensor, dimOrOptions: number | GluOptions = {}): Tensor {
  tensorArg('glu', 'input', x);
  const given = typeof dimOrOptions === 'number' ? dimOrOptions : readOptions<GluOptions>('glu', dimOrOptions, ['dim']).dim;
  if (x.ndim === 0) throw new RangeError('glu: input must have at least one dim, as in PyTorch; got a scalar');
  const dim = normalizeDim('glu', given ?? -1, x.ndim);
  const size = x.shape[dim]!;
  if (size % 2 !== 0) throw new RangeError(`glu: the halved dim ${dim} must have an even size; got ${size} (input ${formatShape(x.shape)})`);
  return composite('glu', () => inFloat32('glu', x, (v) => v.narrow(dim, 0, size / 2).mul(v.narrow(dim, size / 2, size / 2).sigmoid())));
}
