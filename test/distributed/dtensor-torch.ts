// Runs DTensor cases against PyTorch 2.13's own DTensor on 4 simulated ranks
// (dtensor_torch_reference.py), in debug, strict and fused mode: the result's placements, dtype,
// shape, each chip's piece against that rank's local tensor, and fullTensor().
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { tpu, type DTensor, type Placement } from 'tpu-kernel/runtime';
import { expectClose, host, map, type Host } from './dtensor-reference.js';
import { mesh, mesh2d } from '../support/meshes.js';

export type DType = 'float32' | 'bfloat16' | 'int32' | 'bool';
export interface Input { h: Host; dtype: DType; ps: Placement[] }
/** `py`: an expression over d0, d1, ... (PyTorch DTensors) and torch giving one DTensor. */
export interface Case { name: string; inputs: Input[]; js: (...d: DTensor[]) => DTensor; py: string }
interface Described { shape: number[]; dtype: string; values: (number | string)[] }
export interface Answer { placements?: string; full?: Described; locals?: Described[]; error?: string }

export const f32 = (h: Host, ps: Placement[]): Input => ({ h, dtype: 'float32', ps });
export const bf16 = (h: Host, ps: Placement[]): Input => ({ h, dtype: 'bfloat16', ps });
export const i32 = (h: Host, ps: Placement[]): Input => ({ h: map(h, Math.round), dtype: 'int32', ps });
/** Nonzero is true. */
export const bool = (h: Host, ps: Placement[]): Input => ({ h: map(h, (v) => (v !== 0 ? 1 : 0)), dtype: 'bool', ps });

interface Wire { mesh: number[]; py: string; inputs: { values: number[]; shape: number[]; dtype: DType; placements: string[] }[] }
export const wire = (py: string, inputs: readonly Input[]): Wire => ({
  mesh: inputs[0]!.ps.length === 2 ? [2, 2] : [4],
  py,
  inputs: inputs.map(({ h, dtype, ps }) => ({ values: h.data, shape: h.shape, dtype, placements: ps.map(String) })),
});

/** PyTorch DTensor's answers, from one Python process. */
export function torchAnswers(payload: readonly Wire[]): Answer[] {
  const helper = fileURLToPath(new URL('./dtensor_torch_reference.py', import.meta.url));
  const run = spawnSync('python3', [helper], { input: JSON.stringify(payload), maxBuffer: 1 << 26, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`dtensor_torch_reference.py failed (status ${run.status}; python3 -m pip install torch==2.13.0+cpu): ${run.stderr}`);
  return JSON.parse(run.stdout) as Answer[];
}

export const dist = ({ h, dtype, ps }: Input): DTensor => tpu.distributeTensor(tpu.tensor(h.data, { dtype }).reshape(h.shape), ps.length === 2 ? mesh2d : mesh, ps);
/** bfloat16: within two ulps (PyTorch's all-reduce of bfloat16 parts rounds at each addition). */
const tolerance = (dtype: string) => (dtype === 'bfloat16' ? 2 ** -7 : 1e-5);

/** One describe per mode, one test per case. */
export function compareWithTorch(title: string, cases: readonly Case[]): void {
  for (const mode of ['debug', 'strict', 'fused'] as const) {
    describe(`${title} in ${mode} mode`, () => {
      let answers: Answer[] = [];
      beforeAll(() => {
        answers = torchAnswers(cases.map((c) => wire(c.py, c.inputs)));
      });
      cases.forEach((c, i) => {
        it(`${c.name} (PyTorch: ${c.py})`, () => {
          const want = answers[i]!;
          expect(want.error, 'PyTorch raised').toBeUndefined();
          const got = tpu.withMode(mode, () => c.js(...c.inputs.map(dist)));
          expect(`[${got.placements.map(String).join(', ')}]`).toBe(want.placements);
          expect(got.dtype).toBe(want.full!.dtype);
          expect(got.shape).toEqual(want.full!.shape);
          const tol = tolerance(got.dtype);
          got.localTensors().forEach((t, k) => {
            const piece = want.locals![k]!;
            expect(t.dtype).toBe(piece.dtype);
            expect(t.shape).toEqual(piece.shape);
            expectClose(host(t), piece.values.map(Number), tol);
          });
          expectClose(host(got.fullTensor()), want.full!.values.map(Number), tol);
        });
      });
    });
  }
}
