// The dispatched operator rewrite must leave JavaScript's meaning alone where no tensor is in
// play: each snippet runs as written and rewritten (with the __tpuOps cells get), and both must
// return the same value, throw the same error and make the same side effects in the same order.
// Then tensors: a stand-in class with the tensor methods the table names, recognized as the
// runtime's Tensor, shows which method each operator reaches.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import vm from 'node:vm';
import ts from 'typescript';

const { dispatchOperators } = (await import(path.resolve('dist/kernel/session/operators/dispatch-rewrite.js'))) as typeof import('../../kernel/session/operators/dispatch-rewrite.js');
const { createOperatorDispatch, OPERATOR_DISPATCH } = (await import(path.resolve('dist/kernel/session/operators/operator-dispatch.js'))) as typeof import('../../kernel/session/operators/operator-dispatch.js');
const { installInContextDispatch } = (await import(path.resolve('dist/kernel/session/operators/in-context-dispatch.js'))) as typeof import('../../kernel/session/operators/in-context-dispatch.js');

/** The __tpuOps of cells: made in a cells' context around the kernel's dispatch, tensors of `tensorClass` recognized. */
function cellOps(tensorClass?: abstract new (...args: never[]) => unknown, functions: Record<string, unknown> = {}): unknown {
  const dispatch = createOperatorDispatch();
  if (tensorClass) dispatch.recognize(tensorClass, functions);
  const context = vm.createContext({});
  installInContextDispatch(context, dispatch.ops);
  return (context as Record<string, unknown>)[OPERATOR_DISPATCH];
}

/** Runs a snippet (a function body; `log` records effects) and says what happened. */
function outcome(body: string, ops: unknown): string {
  const log: unknown[] = [];
  try {
    const value = new Function(OPERATOR_DISPATCH, 'log', `'use strict';\n${body}`)(ops, log);
    return JSON.stringify({ value: typeof value === 'bigint' ? `${value}n` : value === undefined ? 'undefined' : Number.isNaN(value) ? 'NaN' : value, log });
  } catch (error) {
    return JSON.stringify({ error: `${(error as Error).name}`, log });
  }
}

const effects = `const v = (name, x) => { log.push(name); return x; };
const obj = (name, x) => ({ valueOf() { log.push(name); return x; }, toString() { log.push(name + '$'); return String(x); } });`;

/** Snippets with operators the rewrite takes. */
const REWRITTEN = [
  'return 1 + 2 * 3 - 4 / 2 % 3 ** 2;',
  `${effects} return [obj('a', 12) & obj('b', 10), 5 | 2, -9 ^ 3, 1 << 31, -16 >> 2, -16 >>> 28, 5n & 3n, ~obj('c', 5), ~~-2.5];`,
  'return [1 + "a", "a" + 1, 1 + null, undefined + 1, true + true, [] + {}, 2n ** 10n, 7n % 3n, -5n];',
  `${effects} return v('a', 1) + v('b', 2) * v('c', 3);`,
  `${effects} return obj('a', 2) * obj('b', 3) + obj('c', 1) < obj('d', 10);`,
  `${effects} return [obj('a', 2) == 2, obj('b', 3) != 3, null == undefined, 0 == '', NaN != NaN];`,
  `${effects} return [-obj('a', 2), +obj('b', '4'), -'3', +[], -null, +true];`,
  `${effects} const a = [10, 20, 30]; let i = 0; a[v('i', i++)] += v('r', 5); a[i++] -= 1; return [a, i];`,
  `${effects} const o = { _p: 1, get p() { log.push('get'); return this._p; }, set p(x) { log.push('set'); this._p = x; } }; o.p += 2; o.p **= 2; return o._p;`,
  `${effects} let s = 'x'; s += 1; s += v('s', 'y'); let n = 3; n *= n; n %= 5; n **= 3; n /= 4; n -= 0.5; return [s, n];`,
  `${effects} let n = 13; n &= v('a', 6); n |= 9; n ^= 3; n <<= 2; n >>= 1; let m = -64; m >>>= 28; return [n, m];`,
  'const c = 1; try { c += 1; } catch (e) { return [e.name, c]; }',
  `${effects} const m = [[1, 2], [3, 4]]; m[1][0] += 10; m[0][v('k', 1)] *= 7; return m;`,
  `${effects} const f = () => { log.push('f'); return { q: 1 }; }; f().q += 1; return log.length;`,
  'const s = "hello"; const t = new Map([[1, 2]]); return [s[1], s.length - 1, [..."ab"][1], t.get(1) + 1];',
  'const a = [1, 2, 3]; return a[1, 2];',
  'const x = {}; x[Symbol.iterator] = 1; return typeof x[Symbol.iterator];',
  'class A { get k() { return 2; } } class B extends A { get j() { return super["k"] * 3; } } return new B().j;',
  'function f() { return arguments[0] + arguments.length; } return f(4, 5);',
  'let acc = 0; for (let i = 0; i < 10; i++) { if (i % 2 == 0) acc += i * i; else acc -= i; } return acc;',
  'const a = [3, 1, 2]; a[a.length] = 4; a[0] = a[1] = 9; return a;',
  'const r = []; r["x"] = 1; return [r.x, Object.keys(r)];',
  `${effects} const a = [1]; a[v('k', 0)] = v('val', 2); return a;`,
  'let y = 1; y = y + y * -y; return y;',
  'return [1 < 2 < 3, 3 > 2 > 1, "b" > "a", null >= 0, undefined < 1];',
  'const t = tagged`a${1 + 1}b`; function tagged(s, ...v) { return s.raw.join("|") + v[0]; } return t;',
  'const g = { h: [1, 2] }; const { h: [, second] } = g; return second * 2;',
  `${effects} return [v('a', 0) && v('b', 1), v('c', 2) && v('d', 0), v('e', '') || v('f', null), v('g', 3) || v('h', 4), v('i', 1) && v('j', 2) && v('k', NaN) && v('l', 5), (v('m', 0) || v('n', 1)) && v('o', undefined)];`,
  `${effects} const f = () => 1\nlet g = f\nv('a', 1) && (g = 2)\nv('b', 0) || (g += 3)\nreturn g;`,
];
/** Snippets whose operators stay as written: literals, assignment targets, method calls, delete, ++, optional chains. */
const LEFT_ALONE = [
  'try { return +1n; } catch (e) { return e.name; }',
  'const a = [1, 2, 3]; const b = {}; [a[0], b.x, ...a[3]] = [7, 8, 9, 10]; return [a, b];',
  'const a = [1, 2]; [a[0] = 5, a[1] = 6] = [undefined, 0]; return a;',
  'const a = [0, 0]; ({ k: a[0], j: a[1] = 4 } = { k: 3 }); return a;',
  'const a = [0]; for (a[0] of [1, 2, 3]); const o = {}; for (o["k"] in { p: 1, q: 2 }); return [a, o];',
  'const o = { n: 2, m() { return this.n; } }; const k = "m"; return [o[k](), o["m"](), `${o[k]()}`];',
  'const o = { a: 1 }; delete o["a"]; const c = [5]; c[0]++; ++c[0]; c[0]--; return [o, c];',
  'const o = null; const p = { q: [1] }; return [o?.[0], o?.q[0], p?.q[0], p.q?.[0]];',
  'enum_like: { const E = { A: 1 << 2, B: 1 + 2 }; return E; }',
  'const fns = [() => 1]; return fns[0]();',
];

describe('dispatched operators keep JavaScript where no tensor is in play', () => {
  const ops = cellOps();
  it.each([...REWRITTEN, ...LEFT_ALONE])('%s', (body) => {
    const { code } = dispatchOperators(body, body, ts);
    expect(outcome(code, ops)).toBe(outcome(body, ops));
  });

  it('takes what it should and leaves the rest as written', () => {
    expect(REWRITTEN.filter((body) => !dispatchOperators(body, body, ts).changed)).toEqual([]);
    expect(LEFT_ALONE.filter((body) => dispatchOperators(body, body, ts).changed)).toEqual([]);
  });

  it('leaves types, enums and declarations as written', () => {
    const cell = 'type T = A[0];\nenum E { A = 1 + 2, B = A * 2 }\ndeclare const d: number;\nlet u: T[1] = 1;';
    expect(dispatchOperators(cell, cell, ts)).toEqual({ code: cell, changed: false });
  });
});

/** Records which method an operator reached: `a.add(b)` -> 'add(a,b)'. */
class FakeTensor {
  constructor(readonly name: string) {}
}
for (const method of ['add', 'sub', 'mul', 'div', 'remainder', 'pow', 'lt', 'le', 'gt', 'ge', 'eq', 'ne', 'bitwiseAnd', 'bitwiseOr', 'bitwiseXor', 'bitwiseLeftShift', 'bitwiseRightShift', 'bitwiseNot', 'bitwiseAnd_', 'bitwiseRightShift_', 'at', 'add_', 'sub_', 'mul_', 'div_', 'remainder_', 'pow_', 'fill_', 'copy_']) {
  (FakeTensor.prototype as unknown as Record<string, unknown>)[method] = function (this: FakeTensor, ...args: unknown[]) {
    return new FakeTensor(`${this.name}.${method}(${args.map((a) => (a instanceof FakeTensor ? a.name : JSON.stringify(a))).join(',')})`);
  };
}
(FakeTensor.prototype as unknown as Record<string, unknown>).neg = function (this: FakeTensor) {
  return new FakeTensor(`${this.name}.neg()`);
};
/** What setItem (a write through index tensors or lists, PyTorch's index_put_) was called with. */
const itemWrites: string[] = [];
const named = (a: unknown): string => (a instanceof FakeTensor ? a.name : Array.isArray(a) ? `[${a.map(named).join(',')}]` : JSON.stringify(a));
(FakeTensor.prototype as unknown as Record<string, unknown>).setItem = function (this: FakeTensor, items: unknown[], value: unknown) {
  itemWrites.push(`${this.name}.setItem(${named(items)},${named(value)})`);
  return this;
};
/** A one-value stand-in whose value is 0 (false) unless its name says `true`. */
Object.assign(FakeTensor.prototype, { numel: () => 1, item(this: FakeTensor) { return this.name.includes('true') ? 1 : 0; } });

describe('dispatched operators on tensors reach the methods of the table', () => {
  /** tpu's functions that take a number first: `tpu.div(2, x)` -> 'tpu.div(2,x)'. */
  const functions = Object.fromEntries(['div', 'remainder', 'pow', 'bitwiseLeftShift', 'bitwiseRightShift'].map((name) =>
    [name, (a: unknown, b: FakeTensor) => new FakeTensor(`tpu.${name}(${JSON.stringify(a)},${b.name})`)]));
  const ops = cellOps(FakeTensor, functions);
  const run = (body: string): string => {
    const code = dispatchOperators(body, body, ts).code;
    try {
      const result = new Function(OPERATOR_DISPATCH, 'x', 'y', 'T', `'use strict';\n${code}`)(ops, new FakeTensor('x'), new FakeTensor('y'), FakeTensor);
      return result instanceof FakeTensor ? result.name : String(result);
    } catch (error) {
      return `${(error as Error).name}: ${(error as Error).message}`;
    }
  };
  const cases: [string, string][] = [
    ['return x + 1;', 'x.add(1)'],
    ['return 1 + x;', 'x.add(1)'],
    ['return 1 - x;', 'x.neg().add(1)'],
    ['return 2 * x ** 2;', 'x.pow(2).mul(2)'],
    ['return x / y % 3;', 'x.div(y).remainder(3)'],
    ['return x & y | 1;', 'x.bitwiseAnd(y).bitwiseOr(1)'],
    ['return 6 ^ x;', 'x.bitwiseXor(6)'],
    ['return ~x & y;', 'x.bitwiseNot().bitwiseAnd(y)'],
    ['let z = x; return (z &= y);', 'x.bitwiseAnd_(y)'],
    ['const o = { w: x }; return (o.w >>= 2);', 'x.bitwiseRightShift_(2)'],
    ['return x << 2 >> y;', 'x.bitwiseLeftShift(2).bitwiseRightShift(y)'],
    ['return 2 < x;', 'x.gt(2)'],
    ['return 2 >= x;', 'x.le(2)'],
    ['return x <= y;', 'x.le(y)'],
    ['return -x;', 'x.neg()'],
    ['return x[0][1];', 'x.at(0).at(1)'],
    ['return x[0, ":"];', 'x.at(0,":")'],
    ['return x["1:2"];', 'x.at("1:2")'],
    ['return x["name"];', 'x'],
    ['let z = x; return (z += 1);', 'x.add_(1)'],
    ['const z = x; z **= y; return z;', 'x'],
    ['const z = x; return (z **= y);', 'x.pow_(y)'],
    ['return (x[0] -= 2);', 'x.at(0).sub_(2)'],
    ['const o = { w: x }; return (o.w /= y);', 'x.div_(y)'],
    ['x[0] -= 2; return x;', 'x'],
    ['const o = { w: x }; o.w *= 3; return o.w;', 'x'],
    // PyTorch's reflected operators: tpu's function takes the number first
    ['return 2 / x;', 'tpu.div(2,x)'],
    ['return 2 ** x;', 'tpu.pow(2,x)'],
    ['return 7 % x;', 'tpu.remainder(7,x)'],
    ['return 1 << x;', 'tpu.bitwiseLeftShift(1,x)'],
    ['return 8 >> x;', 'tpu.bitwiseRightShift(8,x)'],
    // == and != on a tensor are element-wise, as PyTorch's; against null they stay JavaScript's
    ['return x == 1;', 'x.eq(1)'],
    ['return 1 != x;', 'x.ne(1)'],
    ['return x == y;', 'x.eq(y)'],
    ['return [x == null, x != undefined].join();', 'false,true'],
    ['return +x;', 'TypeError: JavaScript has no operator overloading: unary + makes a number of a tensor: use x.item()'],
    ['return (x[0] = 1);', '1'], // written into x.at(0) (fill_): the assignment's value is 1
    // through an index tensor or a list: PyTorch's index_put_ (setItem); x[i] OP= v is x[i] = x[i] OP v, its value x
    ['return (x[y] = 1);', '1'],
    ['return (x[y] += 1);', 'x'],
    ['x[[0, 1]] = y; x[":", [1], 0] *= 2;', 'undefined'],
    ['return x === x;', 'true'],
    // Python's and/or: a false tensor is the value of `x && b` (b not evaluated), b that of `x || b`
    ['let b = 0; const r = x && (b = 1); return r === x && b === 0;', 'true'],
    ['return x || y;', 'y'],
    ['const t = new T("true"); return [t && y, t || (() => { throw new Error("evaluated"); })()].map((v) => v.name).join();', 'y,true'],
    ['return (x && y) || 2;', '2'],
  ];
  it.each(cases)('%s -> %s', (body, expected) => expect(run(body)).toBe(expected));

  it('writes through index tensors and lists reach setItem, a compound one with the selection updated in place', () => {
    itemWrites.length = 0;
    run('x[y] = 1; x[y] += 1; x[[0, 1]] = y; x[":", [1], 0] *= 2; x[y][0] = 3;');
    expect(itemWrites).toEqual([
      'x.setItem([y],1)',
      'x.setItem([y],x.at(y).add_(1))',
      'x.setItem([[0,1]],y)',
      'x.setItem([":",[1],0],x.at(":",[1],0).mul_(2))',
    ]);
  });

  it('an in-place compound writes through the view and keeps the name bound to the same tensor', () => {
    const log: string[] = [];
    class Logged extends FakeTensor {
      at(k: unknown) {
        log.push(`at(${k})`);
        return new Logged(`${this.name}[${k}]`);
      }
      add_(v: unknown) {
        log.push(`${this.name}.add_(${v})`);
        return this;
      }
    }
    const body = 'x[1] += 5; let z = x; z += 2; return z === x;';
    const code = dispatchOperators(body, body, ts).code;
    expect(new Function(OPERATOR_DISPATCH, 'x', `'use strict';\n${code}`)(cellOps(Logged), new Logged('x'))).toBe(true);
    expect(log).toEqual(['at(1)', 'x[1].add_(5)', 'x.add_(2)']);
  });
});
