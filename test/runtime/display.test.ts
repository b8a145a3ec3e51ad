// Tensor display: PyTorch-like text/plain (summarised when large) and an HTML table.
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';

const display = (t: object) => (t as Record<symbol, () => Record<string, string>>)[Symbol.for('Jupyter.display')]!();

describe('tensor display', () => {
  it('prints floats, ints and bools like PyTorch, with shape, dtype and device', () => {
    expect(display(tpu.tensor([[1, 2], [3, 4]], { dtype: 'float32' }))['text/plain']).toBe(
      "tensor([[1., 2.],\n        [3., 4.]], shape=[2, 2], dtype=float32, device='tpu:0')",
    );
    expect(String(tpu.tensor([0.5, -1.25, 3]))).toBe("tensor([ 0.5000, -1.2500,  3.0000], shape=[3], dtype=float32, device='tpu:0')");
    expect(String(tpu.tensor([1, 20, 300], { dtype: 'int32' }))).toBe("tensor([  1,  20, 300], shape=[3], dtype=int32, device='tpu:0')");
    expect(String(tpu.tensor([true, false]))).toBe("tensor([ True, False], shape=[2], dtype=bool, device='tpu:0')");
    expect(String(tpu.tensor([1e-5, 1]))).toBe("tensor([1.0000e-05, 1.0000e+00], shape=[2], dtype=float32, device='tpu:0')");
    expect(String(tpu.tensor(7, { dtype: 'int32' }))).toBe("tensor(7, shape=[], dtype=int32, device='tpu:0')");
    expect(String(tpu.tensor([1 / 3], { dtype: 'bfloat16' }))).toBe("tensor([0.3340], shape=[1], dtype=bfloat16, device='tpu:0')");
  });

  it('summarises large tensors with ... and 3 items at each edge', () => {
    const text = String(tpu.arange(2000).reshape([2, 1000]));
    expect(text).toBe(
      'tensor([[   0,    1,    2, ...,  997,  998,  999],\n        [1000, 1001, 1002, ..., 1997, 1998, 1999]], ' +
        "shape=[2, 1000], dtype=int64, device='tpu:0')",
    );
  });

  it('gives an HTML table with a caption that never wraps', () => {
    const html = display(tpu.tensor([[1, 2], [3, 4]], { dtype: 'int32' }))['text/html']!;
    expect(html).toContain('<caption style="text-align:left;white-space:nowrap">tensor [2, 2] int32 on tpu:0</caption>');
    expect(html.match(/<tr>/g)).toHaveLength(2);
    expect(html).toContain('>4</td>');
  });
});
