// Elementwise float32 arithmetic over one backend's lowering rules, for primitives a backend
// lowers as a formula of other primitives (special-functions/): each value is a full-shape
// tensor or a 0-d constant, broadcast by the rules as in any program.
import type { DType } from '../../dtype.js';
import type { Abstract } from '../../ops/op.js';
import type { LoweringRule, LoweringTable } from '../lowering-table.js';

export type Operand<V> = V | number;

export class FloatExpressions<Ctx, V> {
  private readonly types = new Map<V, Abstract>();

  constructor(private readonly table: LoweringTable<LoweringRule<Ctx, V>>, private readonly ctx: Ctx, private readonly shape: readonly number[]) {}

  /** A value of the node's shape (an operand, cast to float32 when it is not). */
  input(v: V, dtype: DType): V {
    this.types.set(v, { shape: this.shape, dtype });
    return dtype === 'float32' ? v : this.rule('cast', [v], 'float32', { dtype: 'float32' });
  }

  /** The value cast to the node's result dtype. */
  output(v: V, dtype: DType): V {
    return dtype === 'float32' ? v : this.rule('cast', [v], dtype, { dtype });
  }

  add = (a: Operand<V>, b: Operand<V>): V => this.binary('add', a, b);
  sub = (a: Operand<V>, b: Operand<V>): V => this.binary('sub', a, b);
  mul = (a: Operand<V>, b: Operand<V>): V => this.binary('mul', a, b);
  div = (a: Operand<V>, b: Operand<V>): V => this.binary('div', a, b);
  lt = (a: Operand<V>, b: Operand<V>): V => this.binary('lt', a, b, 'bool');
  le = (a: Operand<V>, b: Operand<V>): V => this.binary('le', a, b, 'bool');
  eq = (a: Operand<V>, b: Operand<V>): V => this.binary('eq', a, b, 'bool');
  and = (a: V, b: V): V => this.binary('logicalAnd', a, b, 'bool');
  or = (a: V, b: V): V => this.binary('logicalOr', a, b, 'bool');

  /** One of the float32 primitives of one operand. */
  unary(op: 'log' | 'sqrt' | 'sin' | 'tan' | 'floor' | 'round' | 'abs', x: V): V {
    return this.rule(op, [x], 'float32');
  }

  isinf = (x: V): V => this.rule('isinf', [x], 'bool');

  where(cond: V, a: Operand<V>, b: Operand<V>): V {
    return this.rule('where', [cond, this.value(a), this.value(b)], 'float32');
  }

  /** c[0] + w·(c[1] + w·(c[2] + ...)): a polynomial in w, lowest coefficient first. */
  polynomial(w: V, coefficients: readonly number[]): V {
    let p: Operand<V> = coefficients[coefficients.length - 1]!;
    for (let k = coefficients.length - 2; k >= 0; k--) p = this.add(this.mul(p, w), coefficients[k]!);
    return p as V;
  }

  private binary(op: string, a: Operand<V>, b: Operand<V>, dtype: DType = 'float32'): V {
    return this.rule(op, [this.value(a), this.value(b)], dtype);
  }

  private value(v: Operand<V>): V {
    if (typeof v !== 'number') return v;
    const c = this.table.get('constant')(this.ctx, [], { shape: [], dtype: 'float32', values: [v] }, { inputs: [], output: { shape: [], dtype: 'float32' } });
    this.types.set(c, { shape: [], dtype: 'float32' });
    return c;
  }

  private rule(op: string, inputs: readonly V[], dtype: DType, attrs: unknown = {}): V {
    const operands = inputs.map((v) => this.types.get(v)!);
    const output: Abstract = { shape: operands.some((t) => t.shape.length > 0) ? this.shape : [], dtype };
    const v = this.table.get(op)(this.ctx, inputs, attrs, { inputs: operands, output });
    this.types.set(v, output);
    return v;
  }
}
