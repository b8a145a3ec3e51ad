// The layers and functions added for natural notebook code type-check in a cell (the
// declarations a cell's language service reads, dist/runtime): Conv1d, RMSNorm, PReLU, GLU,
// Upsample, Threshold by position and by name; F.hardshrink, softshrink, threshold, prelu, glu;
// tpu.addcmul, addcdiv, baddbmm and their methods (addcmul_, addcdiv_ in place); nn.ParameterList.
// Values hand-computed (exact in float32) or shapes.
import { describe, expect, it } from 'vitest';
import { builtSessions } from './built-sessions.js';

const driver = builtSessions('tpu-nn-basic-layers-')();

describe('new nn layers and functions under %typecheck error', () => {
  it('type-check by position and by name, with hand-computed values', async () => {
    await driver.value('%typecheck error');
    const cell = [
      'const F = tpu.nn.functional;',
      'const v = tpu.tensor([-1, 0.25, 2]);',
      'const shrunk = [F.hardshrink(v).tolist(), F.softshrink(v, 0.5).tolist(), F.softshrink(v, { lambd: 1 }).tolist(), F.threshold(v, 0, 5).tolist(), F.threshold(v, { threshold: 1, value: 0 }).tolist()];',
      'const gated = [F.glu(tpu.tensor([2, 0])).tolist(), F.prelu(tpu.tensor([-2, 3]), tpu.tensor([0.5])).tolist(), new tpu.nn.PReLU(1, 0.25).forward(tpu.tensor([-4])).tolist()];',
      'const shapes = [new tpu.nn.Conv1d(2, 4, 3, { padding: 1 }).forward(tpu.ones([1, 2, 5])).shape, new tpu.nn.RMSNorm(2).forward(tpu.ones([3, 2])).shape,',
      '  new tpu.nn.Upsample({ scaleFactor: 2 }).forward(tpu.ones([1, 1, 2, 2])).shape, new tpu.nn.Upsample(null, 2, \'bilinear\').forward(tpu.ones([1, 1, 2, 2])).shape,',
      '  new tpu.nn.GLU(0).forward(tpu.ones([4, 3])).shape];',
      'const shown = [new tpu.nn.RMSNorm(4, null, false), new tpu.nn.Threshold(0.5, 20, true), new tpu.nn.PReLU({ numParameters: 3 }), new tpu.nn.Softshrink(1), new tpu.nn.Hardshrink({ lambd: 2 })].map(String);',
      'JSON.stringify([shrunk, gated, shapes, shown])',
    ].join('\n');
    expect(await driver.value(cell)).toBe(`'${JSON.stringify([
      [[-1, 0, 2], [-0.5, 0, 1.5], [0, 0, 1], [5, 0.25, 2], [0, 0, 2]],
      [[1], [-1, 3], [-1]],
      [[1, 4, 5], [3, 2], [1, 1, 4, 4], [1, 1, 4, 4], [2, 3]],
      ['RMSNorm([4], eps=null, elementwiseAffine=false)', 'Threshold(threshold=0.5, value=20, inplace=true)', 'PReLU(numParameters=3)', 'Softshrink(1)', 'Hardshrink(2)'],
    ])}'`);
  });

  it('addcmul, addcdiv and baddbmm with { value } and { beta, alpha }', async () => {
    const cell = [
      'const sum = tpu.addcmul(tpu.tensor([1, 1]), tpu.tensor([2, 3]), tpu.tensor([4, 5]), { value: 0.5 }).tolist();',
      'const quotient = tpu.tensor([1]).addcdiv(tpu.tensor([3]), tpu.tensor([2])).tolist();',
      'const v = tpu.zeros([2]);',
      'const same = v.addcmul_(tpu.tensor([2, 3]), tpu.tensor([2, 3]), { value: 0.5 }) === v;',
      'const stepped = tpu.ones([2]).addcdiv_(tpu.tensor([1, 4]), tpu.tensor([2, 2]), { value: -2 }).tolist();',
      'const b = [tpu.baddbmm(tpu.zeros([2, 1, 1]), tpu.ones([2, 1, 3]), tpu.ones([2, 3, 1]), { alpha: 2 }).tolist(), tpu.ones([2, 1, 1]).baddbmm(tpu.ones([2, 1, 3]), tpu.ones([2, 3, 1]), { beta: 0 }).tolist()];',
      'JSON.stringify([sum, quotient, same, v.tolist(), stepped, b])',
    ].join('\n');
    expect(await driver.value(cell)).toBe(`'${JSON.stringify([[5, 8.5], [2.5], true, [2, 4.5], [0, -3], [[[[6]], [[6]]], [[[3]], [[3]]]]])}'`);
  });

  it('ParameterList: indexed, appended, iterated, in a module', async () => {
    const cell = [
      'class Scaled extends tpu.nn.Module {',
      '  scales = new tpu.nn.ParameterList([tpu.full([2], 3)]);',
      '  forward(x: ReturnType<typeof tpu.ones>) { return x.mul(this.scales[0]!); }',
      '}',
      'const m = new Scaled();',
      'm.scales.append(tpu.zeros([1]));',
      'const sizes = [...m.scales].map((p) => p.numel());',
      'JSON.stringify([m.forward(tpu.ones([2])).tolist(), Object.keys(m.stateDict()), sizes, m.scales.length])',
    ].join('\n');
    expect(await driver.value(cell)).toBe(`'${JSON.stringify([[3, 3], ['scales.0', 'scales.1'], [2, 1], 2])}'`);
  });
});
