// Elementwise primitives of one operand: the input is cast to the result's dtype (integer
// inputs of exp, log, ... compute in float32), then the rule builds the ONNX subgraph.
import { isFloating, isInteger, type DType } from '../../../dtype.js';
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
  unaryLowering((g, x, dtype) => (isInteger(dtype) ? g.node('Identity', [x]) : lowerFloat(g, x)));

/** A bool-valued function of one operand, given the input in its own compute type. */
const predicate = (rule: UnaryRule): OnnxLowering => (ctx, [x], _attrs, types) => rule(ctx.graph, x!, types.inputs[0]!.dtype);
const allFalse = (g: OnnxGraph, x: string) => g.node('Not', [g.node('Equal', [x, x])]);

// ONNX Runtime's Where merges its two selections as `x != 0 ? x : y`, so a -0 taken from its
// second input (X) comes out +0; one taken from its third input (Y) stays -0. Branches that
// may be -0 (PyTorch keeps the sign: log1p(-0) is -0) go in Y, under a condition that is not
// a Not (ONNX Runtime folds Not(c) into the Where by swapping its inputs).
/** not x, as x xor true: a Not before a Where would swap its inputs (above), so ne and logicalNot are never one. */
function not(g: OnnxGraph, x: string): string {
  const zero = g.constant('int32', [], [0]);
  return g.node('Xor', [x, g.node('Equal', [zero, zero])]); // the constant true folds at session creation
}

/** log(x) / log(base) in float64, rounded to float32 once: correctly rounded but for rare ties (exact at powers of the base). */
const logBase = (base: number) => unaryLowering((g, x) => {
  const log = g.node('Log', [g.node('Cast', [x], { to: 11 })]);
  return g.node('Cast', [g.node('Div', [log, g.constant('float64', [], [Math.log(base)])])], { to: 1 });
});

onnxLowerings.register({
  neg: single('Neg'),
  exp: single('Exp'),
  log: single('Log'),
  log2: logBase(2),
  log10: logBase(10),
  tanh: single('Tanh'),
  sqrt: single('Sqrt'),
  relu: unaryLowering((g, x, dtype) => (dtype === 'int32' || dtype === 'int64' ? g.node('Max', [x, g.constant(dtype, [], [0])]) : g.node('Relu', [x]))),
  abs: single('Abs'),
  // PyTorch's sign: (x > 0) - (x < 0), so NaN and -0 give 0
  sign: unaryLowering((g, x, dtype) => {
    const zero = g.constant(dtype === 'int32' || dtype === 'int64' ? dtype : 'float32', [], [0]);
    const to = dtype === 'int32' ? 6 : dtype === 'int64' ? 7 : 1;
    return g.node('Sub', [g.node('Cast', [g.node('Greater', [x, zero])], { to }), g.node('Cast', [g.node('Less', [x, zero])], { to })]);
  }),
  rsqrt: unaryLowering((g, x) => g.node('Reciprocal', [g.node('Sqrt', [x])])),
  square: unaryLowering((g, x) => g.node('Mul', [x, x])),
  reciprocal: single('Reciprocal'),
  sin: single('Sin'),
  cos: single('Cos'),
  tan: single('Tan'),
  asin: single('Asin'),
  acos: single('Acos'),
  atan: single('Atan'),
  sinh: single('Sinh'),
  cosh: single('Cosh'),
  // 1 / (1 + exp(-x)), as PyTorch's kernel: ONNX Runtime's Sigmoid (a rational approximation
  // around 0.5) returned 0 for x <= -20, where the value is 2e-9 and representable
  sigmoid: unaryLowering((g, x) => g.node('Reciprocal', [g.node('Add', [g.node('Exp', [g.node('Neg', [x])]), g.constant('float32', [], [1])])])),
  erf: single('Erf'),
  // log(1 + x), accurate for tiny x: log(u)·(x/(u−1)) with u = 1 + x (Goldberg's trick; the
  // ratio first, so a huge x does not overflow the product).
  log1p: unaryLowering((g, x) => {
    const one = g.constant('float32', [], [1]);
    const u = g.node('Add', [x, one]);
    const um1 = g.node('Sub', [u, one]);
    const ratio = g.node('Mul', [g.node('Log', [u]), g.node('Div', [x, um1])]);
    // u == 1: x itself (in Y: -0 stays -0); u infinite: log(u) as is.
    const away = g.node('Greater', [g.node('Abs', [um1]), g.constant('float32', [], [0])]);
    return g.node('Where', [away, g.node('Where', [g.node('IsInf', [u]), g.node('Log', [u]), ratio]), x]);
  }),
  // exp(x) − 1, accurate for tiny x: (u−1)·(x/log(u)) with u = exp(x) (the ratio first: no
  // overflow of the product near exp's limit).
  expm1: unaryLowering((g, x) => {
    const one = g.constant('float32', [], [1]);
    const u = g.node('Exp', [x]);
    const um1 = g.node('Sub', [u, one]);
    const ratio = g.node('Mul', [um1, g.node('Div', [x, g.node('Log', [u])])]);
    // u == 1: x itself (in Y: -0 stays -0); u - 1 == -1 (x very negative) or u infinite: u - 1 as is.
    const plain = g.node('Or', [g.node('Equal', [um1, g.constant('float32', [], [-1])]), g.node('IsInf', [u])]);
    const away = g.node('Greater', [g.node('Abs', [um1]), g.constant('float32', [], [0])]);
    return g.node('Where', [away, g.node('Where', [plain, um1, ratio]), x]);
  }),
  floor: rounding((g, x) => g.node('Floor', [x])),
  ceil: rounding((g, x) => g.node('Ceil', [x])),
  round: rounding((g, x) => g.node('Round', [x])),
  // floor of positives, ceil of the rest (in Y: trunc(-0.5) and trunc(-0) are -0, as in PyTorch)
  trunc: rounding((g, x) => g.node('Where', [g.node('Greater', [x, g.constant('float32', [], [0])]), g.node('Floor', [x]), g.node('Ceil', [x])])),
  logicalNot: predicate((g, x, dtype) =>
    dtype === 'bool' ? not(g, x) : g.node('Equal', [x, g.constant(dtype === 'int32' || dtype === 'int64' ? dtype : 'float32', [], [0])]),
  ),
  isnan: predicate((g, x, dtype) => (isFloating(dtype) ? g.node('IsNaN', [x]) : allFalse(g, x))),
  isinf: predicate((g, x, dtype) => (isFloating(dtype) ? g.node('IsInf', [x]) : allFalse(g, x))),
  isfinite: predicate((g, x, dtype) =>
    isFloating(dtype) ? g.node('Not', [g.node('Or', [g.node('IsNaN', [x]), g.node('IsInf', [x])])]) : g.node('Equal', [x, x]),
  ),
});
