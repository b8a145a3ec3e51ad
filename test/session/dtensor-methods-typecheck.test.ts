// DTensor's methods from the lists (runtime/distributed/dtensor-op-groups.ts) are typed for cells:
// under %typecheck error, a cell calling them with DTensor operands type-checks and its results are
// typed DTensor, (values, indices) pairs of DTensors, DTensor lists or host numbers; a refused one
// (toChip) is a type error naming it, and with the check off its error says what to do.
// Expected values are hand-computed.
import { describe, expect, it } from 'vitest';
import { builtSessions } from './built-sessions.js';

const driver = builtSessions('tpu-dtensor-methods-')();

describe('DTensor methods under %typecheck error', () => {
  it('type-check and run with DTensor operands, options and overloads', async () => {
    await driver.value('tpu.setDevice({ chips: 2 })');
    await driver.value('%typecheck error');
    const cell = [
      'const mesh = tpu.initDeviceMesh([2], { names: ["dp"] });',
      'const d = tpu.distributeTensor(tpu.tensor([[3, -1], [0, 4], [2, 2]]), mesh, [tpu.Shard(0)]);',
      'const typed: DTensor = d; // the global type name of cells',
      'const e: DTensor = tpu.distributeTensor(tpu.tensor([[1, 1], [1, 1], [1, 1]]), mesh, [tpu.Replicate()]);',
      'const m: DTensor = typed.median();',
      'const { values, indices } = d.cummax(0);',
      'const parts: DTensor[] = d.split(1, 1);',
      'const big: DTensor = d.maximum(e).clamp({ min: 2 });',
      'const k: number = d.numel() + d.size(1);',
      'const v: number | boolean = d.sum().item();',
      'const same: boolean = d.allclose(d);',
      'const inPlace: DTensor = e.mul_(2);',
      'const slope: DTensor = tpu.nn.functional.leakyRelu(d, { negativeSlope: 0.5 });',
      'const loss: DTensor = tpu.nn.functional.l1Loss(d, e);',
      'const viaTpu: DTensor = tpu.maximum(d, 0);',
      'JSON.stringify([m.item(), values.fullTensor().tolist(), indices.placements.map(String), parts.length, big.fullTensor().tolist(), k, v, same, inPlace.fullTensor().tolist(),',
      '  slope.fullTensor().tolist(), Math.round(loss.item() * 3e6), viaTpu.fullTensor().tolist()])',
    ].join('\n');
    // l1Loss: mean of |d - e| (e doubled in place) = (1 + 3 + 2 + 2 + 0 + 0) / 6 = 4 / 3
    expect(JSON.parse((await driver.value(cell))!.slice(1, -1))).toEqual([
      2, [[3, -1], [3, 4], [3, 4]], ['Replicate()'], 2, [[3, 2], [2, 4], [2, 2]], 8, 10, true, [[2, 2], [2, 2], [2, 2]],
      [[3, -0.5], [0, 4], [2, 2]], 4e6, [[3, 0], [0, 4], [2, 2]],
    ]);
  });

  it('a method DTensor refuses is a type error; unchecked, its error says what to do', async () => {
    const { outcome } = await driver.run('d.toChip(1)');
    expect(outcome).toMatchObject({ status: 'error', ename: 'TypeScriptError' });
    expect((outcome as { evalue: string }).evalue).toContain("Property 'toChip' does not exist on type 'DTensor'");
    const off = await driver.run('%typecheck off\nd.toChip(1)');
    expect(off.outcome).toMatchObject({ status: 'error', ename: 'TypeError' });
    expect((off.outcome as { evalue: string }).evalue).toMatch(/^DTensor\.toChip: not on a DTensor: .*dt\.fullTensor\(\)/);
  });
});
