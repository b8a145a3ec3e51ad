// Fused programs the runtime itself records (a layerNorm → gelu region, an MLP training
// step, composed ops with their backward pass): their StableHLO on XLA:CPU gives the ONNX
// backend's numbers on the same inputs, and compiles with libtpu for v5e.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import type { Program } from '../../runtime/program/program.js';
import { compileForTpu, tpuCompilerInfo } from '../../runtime/device/pjrt/index.js';
import { lowerToStableHlo } from '../../runtime/device/stablehlo/index.js';
import { jaxInstalled } from '../support/jax-tpu-reference.js';
import { seededValues } from '../support/reference.js';
import { XlaCpu } from '../support/xla-cpu.js';
import { operandData, type Tolerance } from './stablehlo-cases.js';
import { firstMismatch, runBoth } from './stablehlo-reference.js';

const available = await jaxInstalled();
if (!available) console.warn('SKIPPED test/pjrt/stablehlo-fused.test.ts: python3 cannot import jax');
const tpuStatus = await tpuCompilerInfo();

afterEach(() => tpu.mode('strict'));

/** The program a fused region flushed by `run` compiled to. */
function recordFused(run: () => void): Program {
  tpu.mode('fused');
  run();
  tpu.mode('strict');
  return tpu.stats().lastProgram!.program;
}

function layerNormGelu(dtype: 'float32' | 'bfloat16'): Program {
  const x = tpu.tensor(seededValues(48, 4), { dtype: 'float32' }).reshape([6, 8]).to(dtype);
  const w = tpu.tensor(seededValues(8, 5), { dtype: 'float32' }).to(dtype);
  const b = tpu.tensor(seededValues(8, 6), { dtype: 'float32' }).to(dtype);
  tpu.syncBlocking();
  return recordFused(() => tpu.nn.functional.gelu(tpu.nn.functional.layerNorm(x, [8], { weight: w, bias: b })).dataSync());
}

/** One SGD-with-momentum step of a 2-layer MLP with a cross-entropy loss (forward, backward, update). */
function mlpStep(): Program {
  tpu.manualSeed(3);
  const model = new tpu.nn.Sequential(new tpu.nn.Linear(4, 8), new tpu.nn.ReLU(), new tpu.nn.Linear(8, 3));
  const opt = new tpu.optim.SGD(model.parameters(), { lr: 0.1, momentum: 0.9 });
  const x = tpu.randn([16, 4]);
  const y = tpu.tensor(Int32Array.from({ length: 16 }, (_, i) => i % 3));
  const step = () =>
    tpu.scope(() => {
      opt.zeroGrad();
      const loss = tpu.nn.crossEntropy(model.forward(x), y);
      loss.backward();
      opt.step();
      return loss.item();
    });
  tpu.mode('fused');
  step(); // the first step creates the momentum buffers
  return recordFused(step);
}

/**
 * A BatchNorm2d training forward (its running statistics and batch count written by the
 * program) beside a groupNorm. Forward only: the scalars fed below (0.125 for every float)
 * replace the norms' counts, and their backward then amplifies summation-order differences
 * past this tolerance (layerNorm's backward does too).
 */
function batchNormGroupNorm(): Program {
  const x = tpu.tensor(seededValues(120, 7), { dtype: 'float32' }).reshape([3, 2, 4, 5]);
  const bn = new tpu.nn.BatchNorm2d(2, { momentum: null });
  tpu.syncBlocking();
  return recordFused(() => {
    bn.forward(x).add(tpu.nn.functional.groupNorm(x, 2)).dataSync();
  });
}

type Tensor = ReturnType<typeof tpu.ones>;
const F = tpu.nn.functional;

/** f(x) and, through autograd, d(sum f(x))/dx in one fused program. */
function forwardBackward(shape: number[], dtype: 'float32' | 'bfloat16', f: (x: Tensor) => Tensor): () => Program {
  return () => {
    const n = shape.reduce((a, b) => a * b, 1);
    const x = tpu.tensor(seededValues(n, n), { dtype: 'float32' }).reshape(shape).to(dtype).detach();
    x.requiresGrad = true;
    tpu.syncBlocking();
    return recordFused(() => {
      f(x).sum().backward();
      x.grad!.dataSync();
    });
  };
}

/** The program with each device check an identity of the value it checks. */
function withoutChecks(record: () => Program): () => Program {
  return () => {
    const program = record();
    const nodes = program.nodes.map((n) => (n.op === 'deviceCheck' ? { ...n, op: 'identity', inputs: [n.inputs[0]!], attrs: {} } : n));
    expect(nodes).not.toEqual(program.nodes);
    return { ...program, nodes };
  };
}

const FUSED_F32: Tolerance = { abs: 1e-6, rel: 1e-5 };
/** One bfloat16 ulp: XLA may keep float32 between fused bfloat16 ops where ONNX rounds after each. */
const FUSED_BF16: Tolerance = { abs: 1e-6, rel: 2 ** -7 };

describe.skipIf(!available)('fused programs on XLA:CPU against the ONNX backend', () => {
  const xla = available ? XlaCpu.start() : undefined;
  afterAll(() => xla?.close());

  const cases: [string, () => Program, Tolerance][] = [
    ['layerNorm → gelu float32', () => layerNormGelu('float32'), FUSED_F32],
    ['layerNorm → gelu bfloat16', () => layerNormGelu('bfloat16'), FUSED_BF16],
    ['MLP training step (SGD with momentum)', mlpStep, FUSED_F32],
    // composed ops, forward and backward
    ['softmax bfloat16', forwardBackward([4, 9], 'bfloat16', (x) => F.softmax(x, -1).mul(x)), FUSED_BF16],
    ['logSoftmax float32', forwardBackward([4, 9], 'float32', (x) => F.logSoftmax(x, 0).mul(x)), FUSED_F32],
    ['maxPool2d', forwardBackward([1, 2, 7, 6], 'float32', (x) => F.maxPool2d(x, 3, { stride: 2, padding: 1 })), FUSED_F32],
    ['avgPool2d', forwardBackward([1, 2, 7, 6], 'float32', (x) => F.avgPool2d(x, 2, { countIncludePad: false, padding: 1 })), FUSED_F32],
    ['interpolate bilinear', forwardBackward([1, 2, 3, 4], 'float32', (x) => F.interpolate(x, { size: [5, 7], mode: 'bilinear' }).square()), FUSED_F32],
    ['causal attention', forwardBackward([2, 5, 4], 'float32', (x) => F.scaledDotProductAttention(x, x.mul(0.5), x, { isCausal: true })), FUSED_F32],
    ['conv1d', forwardBackward([2, 3, 9], 'float32', (x) => F.conv1d(x, x.narrow(2, 0, 3), { stride: 2, padding: 1 })), FUSED_F32],
    ['BatchNorm2d training forward (running stats, cumulative momentum) and groupNorm', batchNormGroupNorm, FUSED_F32],
    ['adaptiveAvgPool2d', forwardBackward([2, 4, 5, 3], 'float32', (x) => F.adaptiveAvgPool2d(x, [3, 2]).square()), FUSED_F32],
    // linalg: elimination with pivots chosen on the device (argmax), unrolled over n. Its row
    // indices (host uploads) are program inputs here, fed generated values as every input:
    // this compares the two lowerings on the same inputs; test/torch/linalg-*.test.ts the values.
    // Those inputs make no real elimination, whose zero pivots would fail inv's and solve's
    // device checks: the checks are left out here (stablehlo-device-check.test.ts has them)
    ['linalg det and slogdet', forwardBackward([2, 4, 4], 'float32', (x) => tpu.linalg.det(x).add(tpu.linalg.slogdet(x).logabsdet)), { abs: 1e-5, rel: 1e-4 }],
    ['linalg inv', withoutChecks(forwardBackward([2, 4, 4], 'float32', (x) => tpu.linalg.inv(x))), { abs: 1e-5, rel: 1e-4 }],
    ['linalg solve, cdist, cross and kron', withoutChecks(forwardBackward([3, 3], 'float32', (x) => tpu.linalg.solve(x, x.narrow(1, 0, 2)).sum().add(tpu.cdist(x, x.mul(0.5))).add(tpu.linalg.cross(x, x.flip(0))).add(tpu.kron(x.narrow(0, 0, 1), x.narrow(1, 0, 1))))), { abs: 1e-5, rel: 1e-4 }],
    // rows and elements read by a JS number: their starts are int32 scalars (dynamic_slice; dynamic_update_slice backward)
    ['rows, elements and narrow windows read by position', forwardBackward([5, 4], 'float32', (x) => x.at(3).mul(x.at(-5, 2)).add(x.narrow(0, 1, 2).sum(0)).mul(x.select(1, 2).sum())), FUSED_F32],
    ['sort, cumprod and strided slices', forwardBackward([3, 8], 'float32', (x) => tpu.sort(x, { dim: 1 }).values.mul(tpu.cumprod(x, 1)).narrow(1, 1, 5).flip(1)), FUSED_F32],
  ];

  for (const [label, record, tolerance] of cases) {
    it(label, async () => {
      const program = record();
      expect(program.nodes.length).toBeGreaterThan(10);
      // Labels must index the 3 classes; other inputs as the primitive tests make them.
      const inputs = program.inputs.map((v, i) => operandData({ ...v, finite: true, ...(v.dtype === 'int32' ? { ints: [0, 2] as const } : {}) }, 100 + i).storage);
      const scalars = program.scalars.map((d) => (d === 'int32' || d === 'int64' ? 1 : 0.125));
      const { onnx, xla: got, dtypes } = await runBoth(xla!, program, inputs, scalars);
      expect(got.length).toBe(program.outputs.length);
      for (const [i, values] of got.entries()) {
        expect(firstMismatch(onnx[i]!, values, dtypes[i]!, tolerance), `${label} output ${i}`).toBeUndefined();
        expect(values.some((v) => v !== 0 && Number.isFinite(v)), `${label} output ${i} has real values`).toBe(true);
      }
      if (tpuStatus.available) {
        const compiled = await compileForTpu(lowerToStableHlo(program).text, { topology: 'v5e:2x2', hloText: false });
        expect(compiled.costAnalysis().flops).toBeGreaterThan(0);
      }
    }, 120_000);
  }
});
