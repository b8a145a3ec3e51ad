// A device error on one chip inside a data-parallel step (an index out of range, found on the
// device) while the other chips enter the step's collectives: the error names the chip and the
// op, no chip waits for it, the weights keep their values, and the next steps train as a
// float64 reference computed here says, in every mode.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';

tpu.setDevice({ chips: 4 });
const mesh = tpu.initDeviceMesh([4], { names: ['dp'] });
const CHIPS = [0, 1, 2, 3];
const W0 = [[0.5, -1], [2, 0.25], [-0.75, 1.5]];
const LR = 0.1;
const ROWS = [0, 2, 4]; // the rows each chip reads from its 5 (plus its offset)

/** Chip c's 5×3 inputs, row-major. */
const inputs = (c: number) => Array.from({ length: 15 }, (_, i) => Math.round((((c + 1) * 7.31 + i * 3.17) % 11) * 100) / 100 - 5);

/** float64: the step's mean loss over chips and the weights after it (SGD on the chips' mean gradient). */
function referenceStep(w: number[][]): { loss: number; w: number[][] } {
  let loss = 0;
  const g = w.map((r) => r.map(() => 0));
  for (const c of CHIPS) {
    const x = ROWS.map((r) => inputs(c).slice(3 * r, 3 * r + 3));
    const y = x.map((row) => [0, 1].map((j) => row.reduce((s, v, i) => s + v * w[i]![j]!, 0)));
    const n = y.length * 2;
    loss += y.flat().reduce((s, v) => s + v * v, 0) / n / CHIPS.length;
    // d mean(y²) / dw[i][j] = Σ_r 2 y[r][j] x[r][i] / n, averaged over the chips.
    for (let i = 0; i < 3; i++) for (let j = 0; j < 2; j++) g[i]![j]! += x.reduce((s, row, r) => s + (2 * y[r]![j]! * row[i]!) / n, 0) / CHIPS.length;
  }
  return { loss, w: w.map((r, i) => r.map((v, j) => v - LR * g[i]![j]!)) };
}

const host = (t: Tensor) => Array.from(t.dataSync() as Float32Array);
function expectClose(got: number[], want: number[], tol = 1e-5): void {
  expect(got.length).toBe(want.length);
  got.forEach((v, i) => expect(Math.abs(v - want[i]!)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(want[i]!))));
}

for (const mode of ['debug', 'strict', 'fused'] as const) {
  describe(`a device error inside a data-parallel step (${mode})`, () => {
    it('names the chip and the op, keeps the weights, and the next steps train', () => {
      tpu.withMode(mode, () => {
        const ps = CHIPS.map((chip) => tpu.tensor(W0, { chip, requiresGrad: true }));
        const opts = ps.map((p) => new tpu.optim.SGD([p], { lr: LR }));
        const xs = CHIPS.map((chip) => tpu.tensor(inputs(chip), { chip }).reshape([5, 3]));
        // The rows' indices come from device arithmetic: their range is known on the device only.
        const step = (offsets: number[]) => {
          opts.forEach((o) => o.zeroGrad());
          const losses = xs.map((x, c) => x.indexSelect(0, tpu.tensor(new Int32Array(ROWS), { chip: c }).add(offsets[c]!)).matmul(ps[c]!).square().mean());
          losses.forEach((l) => l.backward());
          const grads = tpu.distributed.allReduce(ps.map((p) => p.grad!), { mesh, op: 'mean' });
          ps.forEach((p, c) => void (p.grad = grads[c]!));
          opts.forEach((o) => o.step());
          return tpu.distributed.allReduce(losses.map((l) => l.detach()), { mesh, op: 'mean' })[0]!.item();
        };

        // Chip 1 reads rows 10, 12, 14 of 5: its forward fails on the device (twice, to see that
        // an error does not follow the next one).
        for (let k = 0; k < 2; k++) {
          const error = (() => {
            try {
              step([0, 10, 0, 0]);
            } catch (e) {
              return (e as Error).message;
            }
          })();
          expect(error).toMatch(/on chip 1\b[\s\S]*indices element out of data bounds/);
          expect(error).toMatch(/indexSelect/);
        }
        // The error was reported once: no chip holds it for a later sync point.
        expect(() => tpu.syncBlocking()).not.toThrow();
        // No step ran: every chip's weights are as they were.
        for (const p of ps) expectClose(host(p), W0.flat(), 0);

        let w = W0;
        for (let i = 0; i < 2; i++) {
          const want = referenceStep(w);
          expectClose([step([0, 0, 0, 0])], [want.loss]);
          for (const p of ps) expectClose(host(p), want.w.flat());
          w = want.w;
        }
      });
    }, 40_000); // a chip left waiting for its peers would wait 60 s
  });
}

describe('a chip out of memory when a fused region with a collective runs', () => {
  it('no chip starts; the error names the chip; in-place updates are undone; the next collective works', () => {
    const rows = 64; // 64×1024 float32: 256 KiB per tensor
    const xs = CHIPS.map((chip) => tpu.full([rows, 1024], chip + 1, { chip }));
    const ws = CHIPS.map((chip) => tpu.full([rows, 1024], 0.5, { chip }));
    tpu.syncBlocking();
    // Room for 3 more such tensors on the fullest chip (earlier tests' garbage may still be live).
    const live = tpu.memory().chips.map((c) => c.liveBytes);
    const capacity = Math.max(...live) + 3 * 2 ** 18;
    tpu.setDevice({ hbmBytes: capacity });
    try {
      tpu.withMode('fused', () => {
        const sums = tpu.distributed.allReduce(xs.map((x) => x.mul(2)), { mesh });
        ws.forEach((w, c) => w.copy_(w.add(sums[c]!)));
        // Chip 2 fills up before the region runs (uploads are never deferred): 128 KiB stay free.
        const filler = tpu.tensor(new Float32Array((capacity - tpu.memory().chips[2]!.liveBytes - 2 ** 17) / 4), { chip: 2 });
        expect(() => sums[0]!.dataSync()).toThrow(/out of device memory: .* on chip 2 are live/);
        // Its result cannot be computed again on one chip: a clear error, not a wait for peers.
        expect(() => sums[1]!.dataSync()).toThrow(/needs the result of all_reduce on chip 1, whose program did not run/);
        filler.dispose();
        // The weights kept their values; the next collective runs on every chip.
        ws.forEach((w) => expect(new Set(w.dataSync())).toEqual(new Set([0.5])));
        const again = tpu.distributed.allReduce(xs, { mesh });
        // float64: 1 + 2 + 3 + 4.
        again.forEach((t) => expect(new Set(t.dataSync())).toEqual(new Set([10])));
        expect(() => tpu.syncBlocking()).not.toThrow();
      });
    } finally {
      tpu.setDevice({ hbmBytes: null });
    }
  }, 40_000);
});

describe('a peer that never reaches a collective', () => {
  it('the waiting chip fails after TPU_KERNEL_PEER_TIMEOUT_MS; the late part is dropped, so the next collective adds the right parts', () => {
    // A script of its own: the timeout is read when the runtime loads. Chip 0 runs its part of
    // a 2-chip all-reduce alone (as a host error between the chips' launches would leave it).
    const script = `import { apply, ops, tpu } from 'tpu-kernel/runtime';
tpu.setDevice({ chips: 2 });
const part = (chip, values) => apply(ops.allReducePrimitive, [tpu.tensor(values, { chip })], { groups: [[0, 1]], rank: chip, reduce: 'sum' });
const out = {};
try { part(0, [1, 2]).dataSync(); } catch (e) { out.alone = e.message; }
out.late = Array.from(part(1, [10, 20]).dataSync()); // chip 0 sent its part before it gave up
const mesh = tpu.initDeviceMesh([2]);
out.next = tpu.distributed.allReduce([tpu.tensor([100, 200], { chip: 0 }), tpu.tensor([1000, 2000], { chip: 1 })], { mesh }).map((t) => Array.from(t.dataSync()));
console.log(JSON.stringify(out));`;
    const out = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, TPU_KERNEL_PEER_TIMEOUT_MS: '300' }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
    }).trim());
    expect(out.alone).toMatch(/all_reduce: chip 0 waited 0.3 s for chip 1, which never reached the collective/);
    expect(out.late).toEqual([11, 22]);
    // 100 + 1000, 200 + 2000: not chip 1's late [10, 20].
    expect(out.next).toEqual([[1100, 2200], [1100, 2200]]);
  }, 30_000);

  it('TPU_KERNEL_PEER_TIMEOUT_MS must be a positive integer', () => {
    const run = () => execFileSync(process.execPath, ['--input-type=module', '-e', "import 'tpu-kernel/runtime';"], {
      env: { ...process.env, TPU_KERNEL_PEER_TIMEOUT_MS: 'soon' }, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(run).toThrow(/TPU_KERNEL_PEER_TIMEOUT_MS must be a positive integer; got "soon"/);
  });
});
