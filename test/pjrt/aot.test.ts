// JAX's ahead-of-time stages: tpu.compile(fn).lower(...args) gives the StableHLO of ONE
// program (tensors or tpu.spec placeholders as arguments, nothing allocated), and
// lowered.compile({ topology }) gives XLA:TPU's figures for it.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { tpuCompilerInfo } from '../../runtime/device/pjrt/index.js';
import { CHIPS } from '../../runtime/device/chips.js';
import { jaxCompileForTpu, jaxInstalled, type JaxCompileResult } from '../support/jax-tpu-reference.js';
import { XlaCpu, type XlaArray } from '../support/xla-cpu.js';

const status = await tpuCompilerInfo();
if (!status.available) console.warn(`SKIPPED (compile) test/pjrt/aot.test.ts: ${status.reason}`);
const jax = await jaxInstalled();
if (!jax) console.warn('SKIPPED (XLA:CPU, JAX reference) test/pjrt/aot.test.ts: python3 cannot import jax');

const f32 = (t: Tensor): XlaArray => ({ type: 'f32', shape: t.shape, data: t.dataSync() as Float32Array });

describe('lower', () => {
  const bias = tpu.tensor([0.5, -1, 2]);
  const layer = (x: Tensor, w: Tensor, scale: number) => x.matmul(w).add(bias).relu().mul(scale).sum(0);

  it('traces tensors and specs into the same StableHLO: arguments, the captured tensor, the scalar', () => {
    const f = tpu.compile(layer);
    const x = tpu.randn([4, 8]);
    const w = tpu.randn([8, 3]);
    const byTensors = f.lower(x, w, 0.25);
    const bySpecs = f.lower(tpu.spec([4, 8]), tpu.spec([8, 3], 'float32'), 0.25);
    expect(bySpecs.stablehlo).toBe(byTensors.stablehlo);
    expect(bySpecs.stablehlo).toMatch(/func\.func public @main\(%arg0: tensor<4x8xf32>, %arg1: tensor<8x3xf32>, %arg2: tensor<3xf32>, %arg3: tensor<f32>\)/);
    expect(bySpecs.inputs.map((i) => [i.shape, i.dtype, i.argument, i.captured])).toEqual([
      [[4, 8], 'float32', 0, null], [[8, 3], 'float32', 1, null], [[3], 'float32', null, bias],
    ]);
    expect(bySpecs.scalars).toEqual([0.25]);
    expect(f.stats().calls).toBe(0); // lowering neither calls nor traces the function for replay
  });

  it('rejects reading a value while lowering, and a misspelt spec', () => {
    const f = tpu.compile((x: Tensor) => x.mul(x.sum().item()));
    expect(() => f.lower(tpu.spec([2]))).toThrow(/reading a tensor value is not possible/);
    expect(() => tpu.spec([2, -1])).toThrow(/tpu.spec: shape must be an array of non-negative integers/);
    expect(() => tpu.spec([2], 'float64' as never)).toThrow(/tpu.spec: dtype must be one of float32, bfloat16, int32, int64, bool; got "float64"/);
  });

  it('lowers a training step: parameters are captured inputs, and lowering changes nothing', () => {
    tpu.manualSeed(3);
    const model = new tpu.nn.Linear(5, 2);
    const opt = new tpu.optim.SGD(model.parameters(), { lr: 0.1 });
    const step = tpu.compile((x: Tensor, y: Tensor) => {
      opt.zeroGrad();
      const loss = tpu.nn.mseLoss(model.forward(x), y);
      loss.backward();
      opt.step();
      return loss;
    });
    const before = model.parameters().map((p) => Array.from(p.dataSync()));
    const memory = tpu.memory();
    const lowered = step.lower(tpu.spec([16, 5]), tpu.spec([16, 2]));
    expect(tpu.memory()).toEqual(memory);
    expect(model.parameters().map((p) => Array.from(p.dataSync()))).toEqual(before);
    const captured = lowered.inputs.filter((i) => i.captured).map((i) => i.captured);
    expect(new Set(captured)).toEqual(new Set(model.parameters()));
    // @main takes x, the weight, the bias, y and the scalars; it returns the loss first, then
    // the gradients and the updated parameters.
    const main = lowered.stablehlo.match(/@main\((.*)\) -> \((.*)\) \{/)!;
    expect(main[1]!.split(', ').slice(0, 4).map((a) => a.split(': ')[1])).toEqual(
      ['tensor<16x5xf32>', 'tensor<2x5xf32>', 'tensor<2xf32>', 'tensor<16x2xf32>']);
    expect(main[2]!.split(', ')[0]).toBe('tensor<f32>');
    expect(main[2]!.split(', ').slice(1).sort()).toEqual(['tensor<2x5xf32>', 'tensor<2x5xf32>', 'tensor<2xf32>', 'tensor<2xf32>']);
    // The gradients of a program that never ran are not left on the parameters.
    expect(model.parameters().map((p) => p.grad)).toEqual([null, null]);
    // A real step afterwards still works: one SGD step against the float64 reference.
    const x = tpu.randn([16, 5]);
    const y = tpu.randn([16, 2]);
    const [w0, b0] = before;
    const xs = x.dataSync();
    const ys = y.dataSync();
    const gw = new Array(10).fill(0);
    const gb = [0, 0];
    for (let i = 0; i < 16; i++) {
      for (let o = 0; o < 2; o++) {
        let pred = b0![o]!;
        for (let k = 0; k < 5; k++) pred += xs[i * 5 + k]! * w0![o * 5 + k]!;
        const g = (2 * (pred - ys[i * 2 + o]!)) / 32;
        gb[o] += g;
        for (let k = 0; k < 5; k++) gw[o * 5 + k] += g * xs[i * 5 + k]!;
      }
    }
    step(x, y);
    Array.from(model.weight.dataSync()).forEach((v, j) => expect(v).toBeCloseTo(w0![j]! - 0.1 * gw[j]!, 5));
    Array.from(model.bias!.dataSync()).forEach((v, j) => expect(v).toBeCloseTo(b0![j]! - 0.1 * gb[j]!, 5));
  });
});

describe.skipIf(!jax)('lowered StableHLO on XLA:CPU', () => {
  const xla = jax ? XlaCpu.start() : undefined;
  afterAll(() => xla?.close());

  it('gives the eager result, from tensors and from specs', async () => {
    const bias = tpu.tensor([0.5, -1, 2]);
    const f = tpu.compile((x: Tensor, w: Tensor, scale: number) => x.matmul(w).add(bias).relu().mul(scale).sum(0));
    const x = tpu.randn([4, 8]);
    const w = tpu.randn([8, 3]);
    // The reference: float64 loops over the same inputs.
    const xs = x.dataSync();
    const ws = w.dataSync();
    const expected = [0, 1, 2].map((j) => {
      let s = 0;
      for (let i = 0; i < 4; i++) {
        let d = [0.5, -1, 2][j]!;
        for (let k = 0; k < 8; k++) d += xs[i * 8 + k]! * ws[k * 3 + j]!;
        s += Math.max(d, 0) * 0.25;
      }
      return s;
    });
    const eager = Array.from(f(x, w, 0.25).dataSync());
    eager.forEach((v, j) => expect(v).toBeCloseTo(expected[j]!, 4));
    for (const lowered of [f.lower(x, w, 0.25), f.lower(tpu.spec([4, 8]), tpu.spec([8, 3]), 0.25)]) {
      const operands = [x, w];
      const args = lowered.inputs.map((i) => f32(i.captured ?? operands[i.argument!]!));
      args.push({ type: 'f32', shape: [], data: Float32Array.of(lowered.scalars[0]!) });
      const [out] = await xla!.run(lowered.stablehlo, args);
      Array.from(out!.data).forEach((v, j) => expect(v).toBeCloseTo(eager[j]!, 5));
    }
  });
});

describe.skipIf(!status.available)('lowered.compile (XLA:TPU through libtpu)', () => {
  const [m, k, n] = [256, 1024, 1024];
  const matmul = tpu.compile((x: Tensor, w: Tensor) => x.matmul(w));
  const lowered = matmul.lower(tpu.spec([m, k], 'bfloat16'), tpu.spec([k, n], 'bfloat16'));

  it('has the hand-computed figures of a bf16 matmul, and JAX compiles the same text to the same figures', async () => {
    const compiled = await lowered.compile({ topology: 'v5e:2x2' });
    const cost = compiled.costAnalysis();
    // A multiply and an add per k, plus one for the f32 -> bf16 rounding of each output element.
    expect(cost.flops).toBe(2 * m * k * n + m * n);
    expect(cost.transcendentals).toBe(0);
    expect(cost.optimalSeconds).toBeGreaterThan(0);
    const mem = compiled.memoryAnalysis();
    expect(mem.argumentBytes).toBe((m * k + k * n) * 2);
    expect(mem.outputBytes).toBe(m * n * 2);
    expect(mem.peakBytes).toBeGreaterThanOrEqual(mem.argumentBytes + mem.outputBytes);
    expect(compiled.asText()).toMatch(/convolution|dot\(/);
    if (!jax) return;
    const [ref] = (await jaxCompileForTpu([{ stablehlo: lowered.stablehlo, topology: 'v5e:2x2' }])) as JaxCompileResult[];
    expect(cost.flops).toBe(ref!.cost.flops);
    expect(cost.bytesAccessed).toBe(ref!.cost['bytes accessed']);
    expect(cost.optimalSeconds).toBe(ref!.cost.optimal_seconds);
    const { peakBytes: _, ...stats } = mem;
    expect(stats).toEqual(ref!.memory);
    expect(compiled.asText()).toBe(ref!.hloText);
  }, 180_000);

  it('checks its options', async () => {
    await expect(lowered.compile({ topolgy: 'v5e:2x2' } as never)).rejects.toThrow(
      "Lowered.compile: unknown option 'topolgy'; Lowered.compile accepts 'topology', 'numPartitions'");
    await expect(lowered.compile({} as never)).rejects.toThrow(/topology must be a named TPU topology/);
  });

  it('compiles a model that fits a v5p chip but not a v5e chip, without allocating it', async () => {
    // 20 residual MLP blocks, d 8192, hidden 32768, bfloat16: 21.5 GB of weights, as specs.
    const [d, hidden, blocks] = [8192, 32768, 20];
    const mlp = tpu.compile((x: Tensor, layers: { up: Tensor; down: Tensor }[]) => {
      let h = x;
      for (const { up, down } of layers) h = h.add(h.matmul(up).gelu().matmul(down));
      return h;
    });
    const memory = tpu.memory();
    const layers = Array.from({ length: blocks }, () => ({ up: tpu.spec([d, hidden], 'bfloat16'), down: tpu.spec([hidden, d], 'bfloat16') }));
    const lowered = mlp.lower(tpu.spec([8, d], 'bfloat16'), layers);
    expect(tpu.memory()).toEqual(memory);
    const compiled = await lowered.compile({ topology: 'v5p:2x2x1' });
    const weights = blocks * 2 * d * hidden * 2;
    const mem = compiled.memoryAnalysis();
    expect(mem.argumentBytes).toBe(weights + 8 * d * 2);
    expect(mem.peakBytes).toBeGreaterThan(CHIPS.v5e.hbmBytes);
    expect(mem.peakBytes).toBeLessThan(CHIPS.v5p.hbmBytes);
    expect(compiled.costAnalysis().flops).toBeGreaterThanOrEqual(blocks * 2 * (2 * 8 * d * hidden));
  }, 180_000);
});

it('without libtpu, lowered.compile says how to install it', () => {
  // A python3 that finds no libtpu package, first on PATH of a fresh Node process.
  const bin = mkdtempSync(join(tmpdir(), 'no-libtpu-'));
  writeFileSync(join(bin, 'python3'), '#!/bin/sh\nexit 0\n');
  chmodSync(join(bin, 'python3'), 0o755);
  const script = `
    const { tpu } = await import(${JSON.stringify(resolve('dist/runtime/index.js'))});
    const lowered = tpu.compile((x) => x.mul(2)).lower(tpu.spec([4]));
    try { await lowered.compile({ topology: 'v5e:2x2' }); console.log('compiled'); }
    catch (e) { console.log(e.name + ': ' + e.message); }`;
  const env = { ...process.env, PATH: `${bin}:${process.env.PATH}` };
  delete env.TPU_LIBRARY_PATH;
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { env, encoding: 'utf8', timeout: 60_000 });
  expect(out.trim()).toBe(
    'TpuCompilerUnavailableError: TPU compiler not available: libtpu is not installed (python3 -m pip install libtpu, or set TPU_LIBRARY_PATH)');
}, 60_000);
