// ConvTranspose1d/2d, Unfold/Fold, ParameterDict, F.pad 'circular' and the positional forms
// (F.pad's mode and value, F.leakyRelu's slope, cross's dim) type-check in a cell (the
// declarations a cell's language service reads, dist/runtime) and run. Values hand-computed
// (exact in float32) or shapes.
import { describe, expect, it } from 'vitest';
import { builtSessions } from './built-sessions.js';

const driver = builtSessions('tpu-conv-transpose-fold-')();

describe('the transposed convolutions, fold, ParameterDict and positional forms under %typecheck error', () => {
  it('type-check by position and by name, with hand-computed values', async () => {
    await driver.value('%typecheck error');
    const cell = [
      'const F = tpu.nn.functional;',
      'const up = new tpu.nn.ConvTranspose2d(2, 3, 2, { stride: 2, outputPadding: 1 });',
      'const shapes = [up.forward(tpu.ones([1, 2, 3, 3])).shape, up.forward(tpu.ones([1, 2, 3, 3]), [6, 6]).shape, up(tpu.ones([2, 3, 3])).shape,',
      '  new tpu.nn.ConvTranspose1d(2, 4, 3, { groups: 2, bias: false }).forward(tpu.ones([2, 5])).shape,',
      '  new tpu.nn.Unfold(2, { stride: 2 }).forward(tpu.ones([1, 3, 4, 4])).shape, new tpu.nn.Fold([4, 4], 2, 1, 0, 2).forward(tpu.ones([1, 12, 4])).shape];',
      'const values = [F.convTranspose1d(tpu.tensor([[[1, 2]]]), tpu.tensor([[[1, 1]]]), tpu.tensor([0.5]), { stride: 2 }).tolist(),',
      '  F.convTranspose2d(tpu.ones([1, 1, 1, 1]), tpu.ones([1, 1, 2, 2])).tolist(),',
      '  F.fold(F.unfold(tpu.ones([1, 1, 3, 3]), 2), [3, 3], 2).tolist(),',
      "  F.pad(tpu.tensor([[1, 2, 3]]), [1, 2], 'circular').tolist(), F.pad(tpu.tensor([1]), [1, 0], 'constant', 4).tolist(),",
      '  F.leakyRelu(tpu.tensor([-2, 2]), 0.5).tolist(), tpu.cross(tpu.tensor([[1, 0, 0]]), tpu.tensor([[0, 1, 0]]), 1).tolist(),',
      '  tpu.tensor([[0, 1, 0]]).cross(tpu.tensor([[1, 0, 0]]), 1).tolist()];',
      'const d = new tpu.nn.ParameterDict({ scale: tpu.full([2], 3) });',
      "d.set('shift', tpu.ones([2]));",
      "const held = [[...d.keys()], d.get('scale')!.mul(2).tolist(), d.has('shift'), d.size, Object.keys(d.stateDict()), d.parameters().length];",
      'JSON.stringify([shapes, values, held])',
    ].join('\n');
    expect(await driver.value(cell)).toBe(`'${JSON.stringify([
      [[1, 3, 7, 7], [1, 3, 6, 6], [3, 7, 7], [4, 7], [1, 12, 4], [1, 3, 4, 4]],
      [[[[1.5, 1.5, 2.5, 2.5]]], [[[[1, 1], [1, 1]]]], [[[[1, 2, 1], [2, 4, 2], [1, 2, 1]]]], [[3, 1, 2, 3, 1, 2]], [4, 1], [-1, 2], [[0, 0, 1]], [[0, 0, -1]]],
      [['scale', 'shift'], [6, 6], true, 2, ['scale', 'shift'], 2],
    ])}'`);
  });
});
