// Primitives a backend may lower as a composition of its own rules for other primitives, node
// for node the values of the composed ops (ops/log-softmax.ts: StableHLO's logSoftmax, ONNX's of
// a 0-d value).
import type { LogSoftmaxAttrs } from '../ops/log-softmax.js';
import type { ReduceAttrs } from '../ops/reduce.js';
import type { LoweringRule, LoweringTable } from './lowering-table.js';

/** x - m - log Σ exp(x - m), m the row's max: the composed logSoftmax, PyTorch's form. */
export function logSoftmaxByParts<Ctx, V>(table: LoweringTable<LoweringRule<Ctx, V>>): LoweringRule<Ctx, V> {
  return (ctx, [x], { dim }: LogSoftmaxAttrs, types) => {
    const full = types.output;
    const row = { shape: full.shape.map((n, i) => (i === dim ? 1 : n)), dtype: full.dtype };
    const perRow: ReduceAttrs = { dims: [dim], keepdim: true };
    const reduce = (op: string, v: V) => table.get(op)(ctx, [v], perRow, { inputs: [full], output: row });
    const minus = (a: V, b: V) => table.get('sub')(ctx, [a, b], {}, { inputs: [full, row], output: full });
    const shifted = minus(x!, reduce('amax', x!));
    const total = reduce('sum', table.get('exp')(ctx, [shifted], {}, { inputs: [full], output: full }));
    return minus(shifted, table.get('log')(ctx, [total], {}, { inputs: [row], output: row }));
  };
}
