// Primitives a backend may lower as a composition of its own rules for other primitives, node
// for node the values of the composed ops (ops/log-softmax.ts: StableHLO's logSoftmax, ONNX's of
// a 0-d value; ops/xlogy.ts: xlogy on every backend).
import type { DType } from '../dtype.js';
import type { Abstract } from '../ops/op.js';
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

/**
 * x · log(y), 0 where x is 0, NaN where y is NaN (torch.xlogy's kernel), in float32 for a
 * bfloat16 result (cast back once).
 */
export function xlogyByParts<Ctx, V>(table: LoweringTable<LoweringRule<Ctx, V>>): LoweringRule<Ctx, V> {
  return (ctx, [x, y], _attrs, types) => {
    const [tx, ty] = types.inputs as [Abstract, Abstract];
    const out = types.output;
    const c: DType = 'float32';
    const at = (shape: readonly number[], dtype: DType = c): Abstract => ({ shape, dtype });
    const rule = (op: string, inputs: V[], attrs: unknown, operands: Abstract[], result: Abstract) => table.get(op)(ctx, inputs, attrs, { inputs: operands, output: result });
    const toFloat = (v: V, t: Abstract) => (t.dtype === c ? v : rule('cast', [v], { dtype: c }, [t], at(t.shape)));
    const xf = toFloat(x!, tx);
    const yf = toFloat(y!, ty);
    const zero = rule('constant', [], { shape: [], dtype: c, values: [0] }, [], at([]));
    const product = rule('mul', [xf, rule('log', [yf], {}, [at(ty.shape)], at(ty.shape))], {}, [at(tx.shape), at(ty.shape)], at(out.shape));
    const xZero = rule('eq', [xf, zero], {}, [at(tx.shape), at([])], at(tx.shape, 'bool'));
    const finite = rule('where', [xZero, zero, product], {}, [at(tx.shape, 'bool'), at([]), at(out.shape)], at(out.shape));
    const yNan = rule('isnan', [yf], {}, [at(ty.shape)], at(ty.shape, 'bool'));
    const value = rule('where', [yNan, yf, finite], {}, [at(ty.shape, 'bool'), at(ty.shape), at(out.shape)], at(out.shape));
    return out.dtype === c ? value : rule('cast', [value], { dtype: out.dtype }, [at(out.shape)], out);
  };
}
