// Values made in the program (constant, fill) and passed through (identity, cast).
import type { DType } from '../../../dtype.js';
import type { ConstantAttrs } from '../../../ops/constant.js';
import type { Shape } from '../../../shape.js';
import { ELEMENT_TYPE } from '../mlir-function.js';
import { broadcastTo, convert } from './hlo.js';
import { stablehloLowerings } from './table.js';

stablehloLowerings.register({
  constant: ({ fn }, _inputs, { shape, dtype, values }: ConstantAttrs) => fn.constant({ shape, element: ELEMENT_TYPE[dtype] }, values),
  fill: ({ fn }, [v], { shape, dtype }: { shape: Shape; dtype: DType }) => broadcastTo(fn, convert(fn, v!, dtype), shape),
  identity: (_ctx, [x]) => x!,
  cast: ({ fn }, [x], { dtype }: { dtype: DType }) => convert(fn, x!, dtype),
});
