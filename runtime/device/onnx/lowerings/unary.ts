// Elementwise primitives of one operand: the input is cast to the result's dtype (integer
// inputs of exp, log, ... compute in float32), then the rule builds the ONNX subgraph.
import { isFloating, type DType } from '../../../dtype.js';
import type { OnnxGraph } from '../onnx-graph.js';
import { onnxLowerings, type OnnxLowering } from './table.js';

type UnaryRule = (g: OnnxGraph, x: string, dtype: DType) => string;

function unaryLowering(rule: UnaryRule): OnnxLowering {
  return (ctx, [x], _attrs, types) => {
    const dtype = types.output.dtype;
    return rule(ctx.graph, ctx.cast(x!, types.inputs[0]!.dtype, dtype), dtype);
  };
}

/** One ONNX op applied to the input. */
const single = (onnx: string) => unaryLowering((g, x) => g.node(onnx, [x]));

/** Integer inputs are returned as they are (PyTorch). */
const rounding = (lowerFloat: (g: OnnxGraph, x: string) => string) =>
  unaryLowering((g, x, dtype) => (dtype === 'int32' ? g.node('Identity', [x]) : lowerFloat(g, x)));

/** A bool-valued function of one operand, given the input in its own compute type. */
const predicate = (rule: UnaryRule): OnnxLowering => (ctx, [x], _attrs, types) => rule(ctx.graph, x!, types.inputs[0]!.dtype);
const allFalse = (g: OnnxGraph, x: string) => g.node('Not', [g.node('Equal', [x, x])]);

onnxLowerings.register({
  neg: single('Neg'),
  exp: single('Exp'),
  log: single('Log'),
  tanh: single('Tanh'),
  sqrt: single('Sqrt'),
  relu: unaryLowering((g, x, dtype) => (dtype === 'int32' ? g.node('Max', [x, g.constant('int32', [], [0])]) : g.node('Relu', [x]))),
  abs: single('Abs'),
  sign: single('Sign'),
  rsqrt: unaryLowering((g, x) => g.node('Reciprocal', [g.node('Sqrt', [x])])),
  square: unaryLowering((g, x) => g.node('Mul', [x, x])),
  reciprocal: single('Reciprocal'),
  sin: single('Sin'),
  cos: single('Cos'),
  sigmoid: single('Sigmoid'),
  erf: single('Erf'),
  // log(1 + x), accurate for tiny x: log(u)·x/(u−1) with u = 1 + x (Goldberg's trick).
  log1p: unaryLowering((g, x) => {
    const one = g.constant('float32', [], [1]);
    const u = g.node('Add', [x, one]);
    const ratio = g.node('Div', [g.node('Mul', [g.node('Log', [u]), x]), g.node('Sub', [u, one])]);
    const exact = g.node('Or', [g.node('Equal', [u, one]), g.node('IsInf', [u])]);
    return g.node('Where', [exact, g.node('Where', [g.node('Equal', [u, one]), x, g.node('Log', [u])]), ratio]);
  }),
  // exp(x) − 1, accurate for tiny x: (u−1)·x/log(u) with u = exp(x).
  expm1: unaryLowering((g, x) => {
    const one = g.constant('float32', [], [1]);
    const u = g.node('Exp', [x]);
    const um1 = g.node('Sub', [u, one]);
    const ratio = g.node('Div', [g.node('Mul', [um1, x]), g.node('Log', [u])]);
    // u == 1: x itself; u - 1 == -1 (x very negative) or u infinite: u - 1 as is.
    const plain = g.node('Or', [g.node('Equal', [um1, g.constant('float32', [], [-1])]), g.node('IsInf', [u])]);
    return g.node('Where', [g.node('Equal', [u, one]), x, g.node('Where', [plain, um1, ratio])]);
  }),
  floor: rounding((g, x) => g.node('Floor', [x])),
  ceil: rounding((g, x) => g.node('Ceil', [x])),
  round: rounding((g, x) => g.node('Round', [x])),
  trunc: rounding((g, x) =>
    g.node('Where', [g.node('Less', [x, g.constant('float32', [], [0])]), g.node('Ceil', [x]), g.node('Floor', [x])]),
  ),
  logicalNot: predicate((g, x, dtype) =>
    dtype === 'bool' ? g.node('Not', [x]) : g.node('Equal', [x, g.constant(dtype === 'int32' ? 'int32' : 'float32', [], [0])]),
  ),
  isnan: predicate((g, x, dtype) => (isFloating(dtype) ? g.node('IsNaN', [x]) : allFalse(g, x))),
  isinf: predicate((g, x, dtype) => (isFloating(dtype) ? g.node('IsInf', [x]) : allFalse(g, x))),
  isfinite: predicate((g, x, dtype) =>
    isFloating(dtype) ? g.node('Not', [g.node('Or', [g.node('IsNaN', [x]), g.node('IsInf', [x])])]) : g.node('Equal', [x, x]),
  ),
});
