// Our binding to ONNX Runtime's C API (runtime/device/onnx/native, built by npm install): the
// CPU executor uses it, ops through it match float64 references in every dtype, and misuse or
// a bad model comes back as a JS error with ORT's message.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { tpu } from 'tpu-kernel/runtime';
import { loadOrtc, type OrtcAddon, type TensorSpec } from '../../dist/runtime/device/onnx/ortc-addon.js';
import { sessionOpChecks } from '../support/ort-binding-checks.js';
import { matmulRef, refOf } from '../support/reference.js';

const shipped = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('onnxruntime-node/package.json'), 'utf8')).version;

describe('ortc binding', () => {
  it('runs the CPU executor, with the ONNX Runtime onnxruntime-node ships', async () => {
    expect((await tpu.deviceStats()).binding).toMatch(new RegExp(`^ortc \\(ONNX Runtime ${shipped.replace(/\./g, '\\.')}, global thread pool; matmul GEMM: `));
  });
  sessionOpChecks(tpu);
});

describe('ortc addon called directly', () => {
  const loaded = loadOrtc(2);
  const addon = (loaded as { addon: OrtcAddon }).addon;
  // An ONNX model is protobuf: these bytes are not one.
  const garbage = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
  const x: TensorSpec = { name: 'x', dtype: 'float32', shape: [2, 3] };

  it('loads', () => {
    expect(loaded).toEqual({ addon: expect.anything(), version: shipped, gemm: expect.any(String), sgemm: expect.any(Boolean) });
  });

  it('a model ORT cannot parse throws ORT\'s message', () => {
    expect(() => addon.createSession(garbage, false, [x], [x])).toThrow(/protobuf|parse|model/i);
  });

  it('arrays of the wrong type or size, and a released session, throw naming the problem', async () => {
    const { lowerToOnnx } = await import('../../dist/runtime/device/onnx/lower-program.js');
    const t = { shape: [2, 3], dtype: 'float32' } as const;
    const program = { inputs: [t, t], scalars: [], nodes: [{ op: 'add', inputs: [0, 1], attrs: {}, ...t }], outputs: [2] };
    const lowered = lowerToOnnx(program);
    const spec = (name: string): TensorSpec => ({ name, dtype: 'float32', shape: [2, 3] });
    const session = addon.createSession(lowered.model, false, lowered.inputNames.map(spec), lowered.outputNames.map(spec));
    const a = Float32Array.from([1, 2, 3, 4, 5, 6]);
    const out = new Float32Array(6);
    addon.run(session, [a, a], [out]);
    expect(Array.from(out)).toEqual([2, 4, 6, 8, 10, 12]);
    expect(() => addon.run(session, [a, new Float32Array(5)], [out])).toThrow(/tensor in1 has the wrong type or size \(20 bytes, expected 24\)/);
    expect(() => addon.run(session, [a, Int32Array.from(a)], [out])).toThrow(/tensor in1 has the wrong type or size/);
    expect(() => addon.run(session, [a], [out])).toThrow(/expected 2 tensors, got 1/);
    addon.releaseSession(session);
    expect(() => addon.run(session, [a, a], [out])).toThrow(/the session was released/);
  });
});

it('with an ORT environment made first (onnxruntime-node in the same process), large programs get pools of their own', () => {
  const a = refOf([96, 128], 3);
  const b = refOf([128, 80], 4);
  const script = `
    import { initOrt } from 'onnxruntime-node/dist/binding.js';
    initOrt();
    const { tpu } = await import('tpu-kernel/runtime');
    const chunks = [];
    for await (const c of process.stdin) chunks.push(c);
    const { a, b } = JSON.parse(Buffer.concat(chunks).toString());
    const y = tpu.tensor(a).reshape([96, 128]).matmul(tpu.tensor(b).reshape([128, 80]));
    console.log(JSON.stringify({ binding: (await tpu.deviceStats()).binding, y: Array.from(y.dataSync()) }));
    process.exit(0);`;
  const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', input: JSON.stringify({ a: a.data, b: b.data }) }).trim().split('\n').pop()!);
  expect(out.binding).toMatch(new RegExp(`^ortc \\(ONNX Runtime ${shipped.replace(/\./g, '\\.')}, per session thread pool; matmul GEMM: `));
  const want = matmulRef(a, b).data;
  out.y.forEach((v: number, i: number) => expect(Math.abs(v - want[i]!)).toBeLessThanOrEqual(1e-4 + 1e-5 * Math.abs(want[i]!)));
});
