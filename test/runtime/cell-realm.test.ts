// Notebook cells run in their own vm context: their object literals have another realm's
// Object.prototype. Options objects, trees returned from tpu.scope and arguments and results
// of tpu.compile must still be recognized as plain objects.
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';

const cell = vm.createContext({});
/** An object literal made in the "cell" realm. */
const literal = <T>(source: string): T => vm.runInContext(`(${source})`, cell) as T;

describe('objects from a notebook cell realm', () => {
  it('options, scope results and compiled calls see them as plain objects', () => {
    expect(Object.getPrototypeOf(literal('{}'))).not.toBe(Object.prototype);
    const w = tpu.zeros([2], literal<{ requiresGrad: boolean }>('{ requiresGrad: true }'));
    expect(w.requiresGrad).toBe(true);

    const kept = tpu.scope(() => {
      const out = literal<{ a: Tensor | null }>('{ a: null }');
      out.a = tpu.ones([2]);
      return out;
    });
    expect(kept.a!.array()).toEqual([1, 1]); // not disposed by the scope

    let runs = 0;
    const f = tpu.compile((x: Tensor, o: { k: number }) => {
      runs++;
      const out = literal<{ y: Tensor | null }>('{ y: null }');
      out.y = x.mul(o.k);
      return out;
    });
    const x = tpu.tensor([1, 2], { dtype: 'float32' });
    expect(f(x, literal('{ k: 2 }')).y!.array()).toEqual([2, 4]);
    expect(f(x, literal('{ k: 3 }')).y!.array()).toEqual([3, 6]);
    expect(runs).toBe(1); // the k is a number argument bound per call, not an object by identity
  });
});
