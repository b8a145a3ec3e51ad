// Options objects are checked in one place: an unknown key, a Python spelling or a misplaced
// argument is an error naming the op, the key and the keys the op accepts; functional and
// method forms take the same arguments.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';

const F = tpu.nn.functional;

describe('unknown option keys are errors', () => {
  const x = tpu.tensor([[1, 2, 3], [4, 5, 6]]);
  it.each([
    ['x.sum({ dimm: 0 })', () => x.sum({ dimm: 0 } as never), "sum: unknown option 'dimm'; sum accepts 'dim', 'keepdim', 'dtype'"],
    ['x.mean({ axis: 0 })', () => x.mean({ axis: 0 } as never), "mean: unknown option 'axis' (did you mean 'dim'?); mean accepts 'dim', 'keepdim'"],
    ['x.amax({ keepdims: true })', () => x.amax({ keepdims: true } as never), "amax: unknown option 'keepdims' (did you mean 'keepdim'?)"],
    ['tpu.zeros([2], { requires_grad: true })', () => tpu.zeros([2], { requires_grad: true } as never), "tpu.zeros: unknown option 'requires_grad' (did you mean 'requiresGrad'?); tpu.zeros accepts 'dtype', 'requiresGrad'"],
    ['x.var({ ddof: 0 })', () => x.var({ ddof: 0 } as never), "var: unknown option 'ddof'; var accepts 'dim', 'keepdim', 'correction', 'unbiased'"],
    ['x.argmax({ axis: 1 })', () => x.argmax({ axis: 1 } as never), "argmax: unknown option 'axis' (did you mean 'dim'?)"],
    ['x.softmax({ axis: 1 })', () => x.softmax({ axis: 1 } as never), "softmax: unknown option 'axis' (did you mean 'dim'?); softmax accepts 'dim'"],
    ['x.sort({ reverse: true })', () => x.sort({ reverse: true } as never), "sort: unknown option 'reverse'; sort accepts 'dim', 'descending', 'stable'"],
    ['x.div(2, { rounding_mode: "floor" })', () => x.div(2, { rounding_mode: 'floor' } as never), "div: unknown option 'rounding_mode' (did you mean 'roundingMode'?)"],
    ['x.round({ digits: 2 })', () => x.round({ digits: 2 } as never), "round: unknown option 'digits'; round accepts 'decimals'"],
    ['F.gelu(x, { approx: "tanh" })', () => F.gelu(x, { approx: 'tanh' } as never), "gelu: unknown option 'approx'; gelu accepts 'approximate'"],
    ['crossEntropy(..., { label_smoothing })', () => tpu.nn.crossEntropy(x, tpu.tensor([0, 1], { dtype: 'int32' }), { label_smoothing: 0.1 } as never), "crossEntropy: unknown option 'label_smoothing' (did you mean 'labelSmoothing'?)"],
    ['F.layerNorm(x, [3], { epsilon })', () => F.layerNorm(x, [3], { epsilon: 1e-5 } as never), "layerNorm: unknown option 'epsilon'; layerNorm accepts 'weight', 'bias', 'eps'"],
    ['tpu.onesLike(x, { devcie })', () => tpu.onesLike(x, { devcie: 'tpu:0' } as never), "tpu.onesLike: unknown option 'devcie'; tpu.onesLike accepts 'dtype', 'device'"],
  ])('%s', (_label, call, message) => {
    expect(call).toThrow(message);
  });
});

describe('misplaced arguments', () => {
  it('tpu.arange(6, { dtype }) applies the dtype', () => {
    const a = tpu.arange(6, { dtype: 'float32' });
    expect(a.dtype).toBe('float32');
    expect(a.array()).toEqual([0, 1, 2, 3, 4, 5]);
  });
  it("tpu.arange(5, '10') names the argument", () => {
    expect(() => tpu.arange(5, '10' as never)).toThrow('tpu.arange: end must be a finite number; got "10"');
    expect(() => tpu.arange(1, 2, 3, 4 as never)).toThrow('tpu.arange: expected arange(end), arange(start, end) or arange(start, end, step)');
  });
  it('options where a number belongs are named', () => {
    expect(() => tpu.zeros([2], 'float32' as never)).toThrow("tpu.zeros: options must be an object with keys 'dtype', 'requiresGrad', 'chip', 'device'; got string \"float32\"");
  });
});

describe('functional and method forms take the same arguments', () => {
  const x = tpu.tensor([[1, 2], [3, 5]]);
  const same = (a: { array(): unknown }, b: { array(): unknown }) => expect(a.array()).toEqual(b.array());
  it('softmax, logSoftmax, cumsum, sum with a { dim } object', () => {
    same(F.softmax(x, { dim: 1 }), x.softmax(1));
    same(tpu.softmax(x, { dim: 0 }), x.softmax({ dim: 0 }));
    same(F.logSoftmax(x, { dim: 1 }), x.logSoftmax(1));
    same(tpu.cumsum(x, { dim: 1 }), x.cumsum(1));
    same(tpu.sum(x, { dim: 1, keepdim: true }), x.sum(1, true));
    same(tpu.div(x, 2, { roundingMode: 'floor' }), x.div(2, { roundingMode: 'floor' }));
  });
  it('sum takes a dtype', () => {
    const i = tpu.tensor([1, 2, 3], { dtype: 'int32' });
    expect(i.sum({ dtype: 'float32' }).dtype).toBe('float32');
    expect(i.sum().dtype).toBe('int64'); // as torch.int32 sums
  });
});
