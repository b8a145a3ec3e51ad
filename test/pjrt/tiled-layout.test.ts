// XLA:TPU's tiled layouts read from its optimized HLO: padded sizes against hand arithmetic,
// the same sizes against XLA:TPU's own memory analysis (argument and output bytes), and the
// profile's padding warnings worded from the real layout (an estimate where there is none).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import type { DType } from '../../runtime/dtype.js';
import { tpuCompilerInfo } from '../../runtime/device/pjrt/index.js';
import {
  entryLayout, findLayout, matmulOperandLayouts, moduleLayouts, parseTiledArray, tiledBytes, tiledDims,
} from '../../runtime/device/tpu-loop/tiled-layout.js';
import { paddingMessage } from '../../runtime/profiler/warnings.js';

const status = await tpuCompilerInfo();
if (!status.available) console.warn(`SKIPPED (XLA:TPU parts) test/pjrt/tiled-layout.test.ts: ${status.reason}`);

const cacheDir = mkdtempSync(join(tmpdir(), 'tiled-layout-'));
process.env.TPU_KERNEL_CACHE_DIR = cacheDir;
afterAll(() => rmSync(cacheDir, { recursive: true, force: true }));

const array = (text: string) => {
  const a = parseTiledArray(text);
  if (!a) throw new Error(`not an array: ${text}`);
  return a;
};

describe('tiled layouts by hand', () => {
  it.each([
    // [shape as XLA:TPU writes it, stored dims, bytes], each worked out by hand:
    ['f32[100,100]{1,0:T(8,128)}', [104, 128], 104 * 128 * 4], // rows to 8, columns to 128
    ['f32[100,60]{0,1:T(8,128)}', [128, 64], 64 * 128 * 4], // dim 0 minor: 100 -> 128 lanes, 60 -> 64
    ['bf16[100,100]{1,0:T(8,128)(2,1)}', [104, 128], 104 * 128 * 2], // the (2,1) sub-tile packs pairs: no more padding
    ['pred[100,100]{1,0:T(8,128)(4,1)}', [104, 128], 104 * 128 * 1],
    ['s32[9,17]{1,0:T(8,128)}', [16, 128], 16 * 128 * 4],
    ['f32[3,5,7]{2,0,1:T(4,128)}', [4, 5, 128], 4 * 5 * 128 * 4], // dim 1 is the major one, outside the tile
    ['bf16[2,3,20,30]{3,0,2,1:T(2,128)(2,1)}', [2, 3, 20, 128], 2 * 3 * 20 * 128 * 2],
    ['f32[1000]{0:T(1024)}', [1024], 1024 * 4],
    ['bf16[33]{0:T(256)(128)(2,1)}', [256], 256 * 2],
    ['f32[]{:T(128)}', [], 128 * 4], // a scalar fills one 128-lane tile
    ['f32[64,128]{1,0:T(8,128)S(1)}', [64, 128], 64 * 128 * 4], // S(1): a memory space, not a tile
  ] as const)('%s is stored as %j in %i bytes', (text, dims, bytes) => {
    const a = array(text);
    expect(tiledDims(a)).toEqual(dims);
    expect(tiledBytes(a)).toBe(bytes);
  });

  it('reads the entry layout and the operands of the matmuls of a module', () => {
    const hlo = [
      'HloModule m, entry_computation_layout={(f32[100,100]{1,0:T(8,128)}, f32[100,60]{0,1:T(8,128)})->f32[100,60]{0,1:T(8,128)}}, frontend_attributes={a="b"}',
      '',
      'ENTRY %main (p0: f32[100,100], p1: f32[100,60]) -> f32[100,60] {',
      '  %p0 = f32[100,100]{1,0:T(8,128)} parameter(0)',
      '  %p1.2 = f32[100,60]{0,1:T(8,128)} parameter(1)',
      '  ROOT %convolution.1 = f32[100,60]{0,1:T(8,128)} convolution(%p0, %p1.2), dim_labels=bf_io->bf',
      '}',
    ].join('\n');
    const entry = entryLayout(hlo)!;
    expect(entry.parameters.map((a) => a.layout)).toEqual(['1,0:T(8,128)', '0,1:T(8,128)']);
    expect(entry.outputs.map((a) => [a.elementType, a.dims])).toEqual([['f32', [100, 60]]]);
    expect(matmulOperandLayouts(hlo).map((a) => a.dims)).toEqual([[100, 100], [100, 60]]);
    const found = findLayout([moduleLayouts(hlo)], 'float32', [100, 60]);
    expect(found?.minorToMajor).toEqual([0, 1]);
    expect(findLayout([moduleLayouts(hlo)], 'bfloat16', [100, 60])).toBeUndefined();
  });

  it('words a padding warning from the real layout, or says the 8 x 128 figure is an estimate', () => {
    expect(paddingMessage('matmul other', [100, 60], 'float32', array('f32[100,60]{0,1:T(8,128)}'))).toBe(
      'matmul other [100, 60] float32: XLA:TPU stores it as [128, 64] (layout {0,1:T(8,128)}): 32,768 bytes for 24,000 (27% padding)');
    expect(paddingMessage('matmul input', [100, 128], 'float32', undefined)).toBe(
      'matmul input [100, 128]: dim 0 = 100 is not a multiple of 8; the TPU pads it to [104, 128] ' +
      '(4% padding; an estimate with 8 x 128 tiles: XLA:TPU\'s layout of it is not known)');
    // A layout that fills its tiles: no warning, whatever the estimate would say.
    expect(paddingMessage('matmul input', [64, 256], 'bfloat16', array('bf16[64,256]{1,0:T(8,128)(2,1)}'))).toBeUndefined();
  });
});

describe.skipIf(!status.available)('tiled layouts of XLA:TPU', () => {
  const cases: [readonly number[], DType][] = [
    [[100, 100], 'float32'], [[7, 300], 'bfloat16'], [[9, 17], 'int32'], [[100, 100], 'bool'],
    [[3, 5, 7], 'float32'], [[37], 'int32'], [[33], 'bfloat16'], [[], 'float32'],
  ];
  it.each(cases)('%j %s: argument and output bytes are XLA:TPU\'s memory analysis', async (shape, dtype) => {
    const f = tpu.compile((a: Tensor) => (dtype === 'bool' ? a.logicalNot() : a.neg()));
    const compiled = await f.lower(tpu.spec(shape, dtype)).compile({ topology: 'v5e:1x1' });
    const entry = entryLayout(compiled.asText())!;
    expect(entry.parameters).toHaveLength(1);
    const bytes = (list: typeof entry.parameters) => list.reduce((s, a) => s + tiledBytes(a)!, 0);
    expect(bytes(entry.parameters)).toBe(compiled.memoryAnalysis().argumentBytes);
    expect(bytes(entry.outputs)).toBe(compiled.memoryAnalysis().outputBytes);
  });

  it('a matmul\'s arguments: the tiled bytes of its operands add up to XLA:TPU\'s argument bytes', async () => {
    const f = tpu.compile((a: Tensor, b: Tensor) => a.matmul(b));
    const compiled = await f.lower(tpu.spec([100, 100]), tpu.spec([100, 60])).compile({ topology: 'v5e:1x1' });
    const operands = matmulOperandLayouts(compiled.asText());
    expect(operands.map((a) => a.dims)).toEqual([[100, 100], [100, 60]]);
    // Hand-computed from the layouts XLA:TPU chose: [104, 128] and [128, 64] f32.
    expect(compiled.memoryAnalysis().argumentBytes).toBe(104 * 128 * 4 + 64 * 128 * 4);
    expect(operands.reduce((s, a) => s + tiledBytes(a)!, 0)).toBe(compiled.memoryAnalysis().argumentBytes);
  });

  it('the profile\'s padding warning gives the layout XLA:TPU compiled in the loop, once its figures arrive', async () => {
    process.env.TPU_KERNEL_TPU_COMPILE = 'on';
    try {
      const a = tpu.ones([100, 100]);
      const b = tpu.ones([100, 60]);
      const recording = tpu.profiler.record();
      await a.matmul(b).data();
      const done = await recording.stop();
      expect(done.data.warnings.filter((w) => w.kind === 'matmul-padding').map((w) => w.message)).toEqual([
        'matmul input [100, 100] float32: XLA:TPU stores it as [104, 128] (layout {1,0:T(8,128)}): 53,248 bytes for 40,000 (25% padding)',
        'matmul other [100, 60] float32: XLA:TPU stores it as [128, 64] (layout {0,1:T(8,128)}): 32,768 bytes for 24,000 (27% padding)',
      ]);
    } finally {
      process.env.TPU_KERNEL_TPU_COMPILE = 'off';
    }
  });
});
