// The type names a cell can write without importing the runtime: Tensor, BoolTensor and DType,
// as PyTorch code annotates `x: torch.Tensor`. Under %typecheck error a cell whose annotation
// names a type the cell cannot see does not run. Expected values are hand-computed.
import { describe, expect, it } from 'vitest';
import { builtSessions } from './built-sessions.js';

const driver = builtSessions('tpu-type-names-')();

describe('type names in cells, under %typecheck error', () => {
  it('Tensor annotates parameters and results, and its operators are rewritten', async () => {
    await driver.value('%typecheck error');
    // 1 * 3 + 1, 2 * 4 + 1
    const cell = 'function affine(x: Tensor, w: Tensor): Tensor { return x * w + 1; }\naffine(tpu.tensor([1, 2]), tpu.tensor([3, 4])).tolist()';
    expect(await driver.value(cell)).toBe('[ 4, 9 ]');
  });

  it('BoolTensor holds a comparison, and DType a dtype', async () => {
    expect(await driver.value('const positive: BoolTensor = tpu.tensor([-1, 2]).gt(0);\npositive.tolist()')).toBe('[ false, true ]');
    expect(await driver.value("const kind: DType = 'int32';\ntpu.zeros([2], { dtype: kind }).dtype")).toBe("'int32'");
  });

  it('DType is the union of the dtypes: another string is a type error', async () => {
    const { outcome } = await driver.run("const half: DType = 'float16';");
    expect(outcome).toMatchObject({ status: 'error', ename: 'TypeScriptError', evalue: expect.stringContaining(`Type '"float16"' is not assignable to type 'DType'`) });
  });
});
