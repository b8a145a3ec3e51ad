// varMean stdMean: torch.var_mean and torch.std_mean, the spread and the mean over the same dims.
import type { Tensor } from '../tensor.js';
import { std, variance, varOptions, type VarOptions, type VarRestOptions } from './statistics.js';

type DimArg = number | readonly number[];

function withMean(op: 'varMean' | 'stdMean', spread: typeof variance, x: Tensor, dim?: DimArg | VarOptions | boolean, unbiased?: boolean | VarRestOptions, keepdim?: boolean): [Tensor, Tensor] {
  const { dims, keepdim: keep, correction } = varOptions(op, x, dim, unbiased, keepdim);
  return [spread(x, { dim: dims, keepdim: keep, correction }), x.mean({ dim: dims, keepdim: keep })];
}

/**
 * [variance, mean] over the same dims (torch.var_mean), in var's forms: varMean(x),
 * varMean(x, dim, unbiased, keepdim), varMean(x, dim, { correction, keepdim }), varMean(x, { dim, ... }).
 * @example tpu.varMean(tpu.tensor([1, 2, 6])).map((t) => t.item()) // [7, 3]
 */
export function varMean(x: Tensor, dim?: DimArg | VarOptions | boolean, unbiased?: boolean | VarRestOptions, keepdim?: boolean): [Tensor, Tensor] {
  return withMean('varMean', variance, x, dim, unbiased, keepdim);
}

/**
 * [standard deviation, mean] over the same dims (torch.std_mean), in std's forms.
 * @example tpu.stdMean(tpu.tensor([[1, 3], [2, 6]]), 1, { correction: 0 }).map((t) => t.tolist()) // [[1, 2], [2, 4]]
 */
export function stdMean(x: Tensor, dim?: DimArg | VarOptions | boolean, unbiased?: boolean | VarRestOptions, keepdim?: boolean): [Tensor, Tensor] {
  return withMean('stdMean', std, x, dim, unbiased, keepdim);
}
