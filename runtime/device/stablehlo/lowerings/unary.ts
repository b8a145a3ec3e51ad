// Elementwise primitives of one operand: the input is converted to the result's dtype
// (integer inputs of exp, log, ... compute in float32), then one op or a few.
import { isFloating } from '../../../dtype.js';
import type { MlirFunction } from '../mlir-function.js';
import { compare, convert, isFloatElement, isNan, same, select, splat } from './hlo.js';
import { stablehloLowerings, type StableHloLowering } from './table.js';

type UnaryRule = (fn: MlirFunction, x: string) => string;

function unaryLowering(rule: UnaryRule): StableHloLowering {
  return ({ fn }, [x], _attrs, types) => rule(fn, convert(fn, x!, types.output.dtype));
}

/** One StableHLO op applied to the input. */
const single = (name: string) => unaryLowering((fn, x) => same(fn, name, x));

/** One CHLO op (an op StableHLO lacks, expanded by XLA) applied to the input. */
const chlo = (name: string) => unaryLowering((fn, x) => fn.op(`chlo.${name}`, [x], fn.typeOf(x)));

const logBase = (base: number) => unaryLowering((fn, x) => {
  const t = fn.typeOf(x);
  return same(fn, 'divide', same(fn, 'log', x), splat(fn, Math.log(base), t.shape, t.element));
});

const zeros = (fn: MlirFunction, x: string) => splat(fn, 0, fn.typeOf(x).shape, fn.typeOf(x).element);

/** Integer inputs are returned as they are (PyTorch). */
const rounding = (lowerFloat: UnaryRule) => unaryLowering((fn, x) => (isFloatElement(fn.typeOf(x).element) ? lowerFloat(fn, x) : x));

/** A bool-valued function of one operand, given the input in its own dtype. */
const predicate = (rule: (fn: MlirFunction, x: string, floating: boolean) => string): StableHloLowering =>
  ({ fn }, [x], _attrs, types) => rule(fn, x!, isFloating(types.inputs[0]!.dtype));
const constantBool = (fn: MlirFunction, x: string, value: boolean) => splat(fn, value ? 1 : 0, fn.typeOf(x).shape, 'i1');

stablehloLowerings.register({
  neg: single('negate'),
  exp: single('exponential'),
  log: single('log'),
  // in the element type: TPUs have no float64 (a result may be an ulp from the ONNX backend's)
  log2: logBase(2),
  log10: logBase(10),
  tanh: single('tanh'),
  sqrt: single('sqrt'),
  // x unless below 0: relu(NaN) is NaN and relu(-0) is -0, as in PyTorch.
  relu: unaryLowering((fn, x) => select(fn, compare(fn, x, zeros(fn, x), 'LT'), zeros(fn, x), x)),
  abs: single('abs'),
  // PyTorch's sign: (x > 0) - (x < 0), so NaN and -0 give 0
  sign: unaryLowering((fn, x) => {
    const t = fn.typeOf(x);
    const indicator = (direction: 'GT' | 'LT') => fn.op('stablehlo.convert', [compare(fn, x, zeros(fn, x), direction)], t);
    return same(fn, 'subtract', indicator('GT'), indicator('LT'));
  }),
  rsqrt: single('rsqrt'),
  square: unaryLowering((fn, x) => same(fn, 'multiply', x, x)),
  reciprocal: unaryLowering((fn, x) => same(fn, 'divide', splat(fn, 1, fn.typeOf(x).shape, fn.typeOf(x).element), x)),
  sin: single('sine'),
  cos: single('cosine'),
  tan: single('tan'),
  // CHLO, as erf: XLA expands them
  asin: chlo('asin'),
  acos: chlo('acos'),
  atan: chlo('atan'),
  sinh: chlo('sinh'),
  cosh: chlo('cosh'),
  sigmoid: single('logistic'),
  // CHLO: StableHLO has no erf; XLA expands it (both libtpu and jaxlib accept CHLO).
  erf: chlo('erf'),
  log1p: single('log_plus_one'),
  expm1: single('exponential_minus_one'),
  floor: rounding((fn, x) => same(fn, 'floor', x)),
  ceil: rounding((fn, x) => same(fn, 'ceil', x)),
  round: rounding((fn, x) => same(fn, 'round_nearest_even', x)),
  trunc: rounding((fn, x) => select(fn, compare(fn, x, zeros(fn, x), 'LT'), same(fn, 'ceil', x), same(fn, 'floor', x))),
  logicalNot: predicate((fn, x) => same(fn, 'not', convert(fn, x, 'bool'))),
  isnan: predicate((fn, x, floating) => (floating ? isNan(fn, x) : constantBool(fn, x, false))),
  isinf: predicate((fn, x, floating) => {
    if (!floating) return constantBool(fn, x, false);
    const t = fn.typeOf(x);
    return compare(fn, same(fn, 'abs', x), splat(fn, Infinity, t.shape, t.element), 'EQ');
  }),
  isfinite: predicate((fn, x, floating) =>
    floating ? fn.op('stablehlo.is_finite', [x], { shape: fn.typeOf(x).shape, element: 'i1' }) : constantBool(fn, x, true),
  ),
});
