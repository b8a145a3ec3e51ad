// Lowerings of the special functions (ops/special-functions.ts) as float32 formulas of a
// backend's own rules, the same on every backend; bfloat16 and integer operands are computed
// in float32 and the result cast once.
import type { LoweringRule, LoweringTable } from '../lowering-table.js';
import { FloatExpressions } from './float-expressions.js';
import { digamma, lgamma, trigamma } from './gamma-family.js';
import { erfinv } from './erfinv.js';

type Formula = <V>(e: FloatExpressions<unknown, V>, x: V) => V;

const FORMULAS: Record<string, Formula> = { lgamma, digamma, trigamma, erfinv };

export function specialFunctionLowerings<Ctx, V>(table: LoweringTable<LoweringRule<Ctx, V>>): Record<string, LoweringRule<Ctx, V>> {
  return Object.fromEntries(Object.entries(FORMULAS).map(([name, formula]) => [name, (ctx: Ctx, [x]: readonly V[], _attrs: unknown, types) => {
    const e = new FloatExpressions(table, ctx, types.output.shape);
    const value = formula(e as FloatExpressions<unknown, V>, e.input(x!, types.inputs[0]!.dtype));
    return e.output(value, types.output.dtype);
  }] as const));
}
