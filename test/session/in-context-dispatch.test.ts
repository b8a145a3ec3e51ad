// The dispatch functions cells call are made in the cells' context (so V8 inlines them into a
// cell's loops) and must answer as the kernel's functions do on every kind of operand: the
// primitive cases inline, anything that may be a tensor through the kernel's function.
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { installInContextDispatch } from '../../kernel/session/operators/in-context-dispatch.js';
import { createOperatorDispatch, OPERATOR_DISPATCH } from '../../kernel/session/operators/operator-dispatch.js';

/** A stand-in tensor class: each method names itself and its arguments. */
class FakeTensor {
  constructor(readonly name: string) {}
}
for (const method of ['add', 'sub', 'mul', 'div', 'remainder', 'pow', 'lt', 'le', 'gt', 'ge', 'bitwiseAnd', 'bitwiseOr', 'bitwiseXor', 'bitwiseLeftShift', 'bitwiseRightShift', 'neg', 'bitwiseNot', 'at', 'rsub', 'rdiv', 'rpow', 'rremainder']) {
  Object.defineProperty(FakeTensor.prototype, method, { value(this: FakeTensor, ...args: unknown[]) { return `${this.name}.${method}(${args.map(String).join(', ')})`; } });
}
// one value, 0 (a false tensor) unless its name says `true`
Object.defineProperty(FakeTensor.prototype, 'numel', { value: () => 1 });
Object.defineProperty(FakeTensor.prototype, 'item', { value(this: FakeTensor) { return this.name === 'true' ? 1 : 0; } });

function contextWithDispatch() {
  const dispatch = createOperatorDispatch();
  dispatch.recognize(FakeTensor, {});
  const context = vm.createContext({});
  installInContextDispatch(context, dispatch.ops);
  return { kernel: dispatch.ops, cells: (context as Record<string, Record<string, (...args: unknown[]) => unknown>>)[OPERATOR_DISPATCH]!, context };
}

const outcome = (f: () => unknown) => {
  try {
    const value = f();
    return { value: typeof value === 'number' && Number.isNaN(value) ? 'NaN' : Object.is(value, -0) ? '-0' : value };
  } catch (error) {
    return { error: (error as Error).name, message: (error as Error).message };
  }
};

describe('the dispatch functions in the cells\' context', () => {
  const { kernel, cells, context } = contextWithDispatch();
  const tensor = new FakeTensor('t');
  const operands: unknown[] = [0, -0, 1.5, -3, NaN, Infinity, 2n, 'ab', '', true, undefined, null, [1, 2], new Float32Array([4, 5]), { p: 1 }, () => 1, tensor, new FakeTensor('true'), [tensor]];

  it('are made in that context (V8 does not inline a call into another context)', () => {
    expect(vm.runInContext(`Object.values(${OPERATOR_DISPATCH}).filter((f) => f instanceof Function).length`, context)).toBeGreaterThanOrEqual(14);
    for (const name of ['add', 'lt', 'neg', 'bitwiseAnd', 'bitwiseNot', 'isTensor', 'at', 'setAt']) expect(vm.runInContext(`${OPERATOR_DISPATCH}.${name} instanceof Function`, context), name).toBe(true);
  });

  it('answer as the kernel\'s functions on every pair of operands, errors included', () => {
    for (const name of ['add', 'sub', 'mul', 'div', 'remainder', 'pow', 'lt', 'le', 'gt', 'ge', 'bitwiseAnd', 'bitwiseOr', 'bitwiseXor', 'bitwiseLeftShift', 'bitwiseRightShift']) {
      for (const a of operands) for (const b of operands) {
        expect(outcome(() => cells[name]!(a, b)), `${name}(${String(a)}, ${String(b)})`).toEqual(outcome(() => kernel[name]!(a, b)));
      }
    }
    for (const a of operands) {
      expect(outcome(() => cells.neg!(a)), `neg(${String(a)})`).toEqual(outcome(() => kernel.neg!(a)));
      expect(outcome(() => cells.bitwiseNot!(a)), `bitwiseNot(${String(a)})`).toEqual(outcome(() => kernel.bitwiseNot!(a)));
      // Python's `a and 'b'` / `a or 'b'`: JavaScript's own for all but a tensor, which is its truth
      const truth = a instanceof FakeTensor ? a.name === 'true' : Boolean(a);
      expect(outcome(() => cells.and!(cells.andLeft!(a) && 'b')), `and(${String(a)})`).toEqual(outcome(() => (truth ? 'b' : a)));
      for (const [name, ops] of [['cells', cells], ['kernel', kernel]] as const) {
        expect(outcome(() => ops.orLeft!(a) || 'b'), `${name}: or(${String(a)})`).toEqual(outcome(() => (truth ? a : 'b')));
      }
      expect(cells.isTensor!(a), `isTensor(${String(a)})`).toBe(kernel.isTensor!(a));
      for (const k of [0, 1, 'length', ':', null]) {
        expect(outcome(() => cells.at!(a, k)), `at(${String(a)}, ${String(k)})`).toEqual(outcome(() => kernel.at!(a, k)));
      }
    }
  });

  it('write an element as the kernel\'s setAt, and give a tensor to the kernel\'s', () => {
    const viaCells = [1, 2, 3];
    const viaKernel = [1, 2, 3];
    cells.setAt!(viaCells, 1, 9);
    kernel.setAt!(viaKernel, 1, 9);
    expect(viaCells).toEqual([1, 9, 3]);
    expect(viaCells).toEqual(viaKernel);
    const typed = new Float64Array(2);
    cells.setAt!(typed, 0, 0.5);
    expect([...typed]).toEqual([0.5, 0]);
    expect(outcome(() => cells.setAt!(tensor, [0], 1))).toEqual(outcome(() => kernel.setAt!(tensor, [0], 1)));
    expect(outcome(() => cells.setAt!(tensor, [0], 1))).toHaveProperty('error', 'TypeError'); // a list index copies
  });
});
