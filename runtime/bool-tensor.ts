// The static type of a tensor known to be bool. Tensor is not generic over its dtype; the ops
// whose result is bool whatever their input (comparisons, logical ops, isnan isinf isfinite,
// any all, to('bool'), tpu.tensor of booleans) say so in their return type, and item() /
// array() / tolist() read it: booleans for a BoolTensor, numbers for any other Tensor, as
// PyTorch's item() gives a Python bool or a number by the dtype.
import type { Tensor } from './tensor.js';

/**
 * A tensor of dtype 'bool' (masks, comparisons): its item() is a boolean. An op that keeps its
 * input's dtype (at, reshape, clone, ...) is typed Tensor even on a bool input.
 */
export interface BoolTensor extends Tensor {
  readonly dtype: 'bool';
}

/** The result of an op whose dtype rule is bool for every input, typed so. */
export function asBoolTensor(t: Tensor): BoolTensor {
  return t as BoolTensor;
}
