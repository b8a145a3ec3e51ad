// A DDP and an FSDP training step (the spirals MLP widened to 2 → 256 → 256 → 2, Adam, a batch
// of 1024, strict mode) on 1, 2 and 4 emulated chips, and HSDP on a [2, 2] mesh of 4 chips:
// host ms per step, and the bytes the collectives moved per step (the profile's chips figures:
// what each chip sent its peers), and the bytes of parameters and Adam state each chip keeps
// (parameter + 2 moments).
// Emulated chips share this machine's cores, so ms/step shows the runtime's overhead of
// many chips, not a speedup. Table printed; JSON in test/output/bench/distributed.json.
// Run: npm run bench:distributed
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { tpu } from 'tpu-kernel/runtime';

const STEPS = Number(process.env.STEPS ?? 20);
const WARMUP = 3;
const BATCH = 1024;
const { nn, optim } = tpu;

function data() {
  const xy = new Float32Array(BATCH * 2);
  const labels = new Int32Array(BATCH);
  for (let k = 0; k < BATCH; k++) {
    const c = k % 2;
    const i = Math.floor(k / 2);
    const r = 0.1 + (0.9 * i) / (BATCH / 2);
    const t = (3.5 * Math.PI * i) / (BATCH / 2) + c * Math.PI;
    xy[2 * k] = r * Math.cos(t);
    xy[2 * k + 1] = r * Math.sin(t);
    labels[k] = c;
  }
  return { X: tpu.tensor(xy).reshape([BATCH, 2]), Y: tpu.tensor(labels) };
}

const rows = [];
for (const chips of [1, 2, 4]) {
  await tpu.reset();
  tpu.setDevice({ chips });
  tpu.mode('strict');
  const mesh = tpu.initDeviceMesh([chips], { names: ['dp'] });
  const { X, Y } = data();
  // HSDP on 4 chips: fullyShard over a [2, 2] mesh (replicated over dim 0, sharded over dim 1).
  for (const kind of chips === 4 ? ['DDP', 'FSDP', 'HSDP'] : ['DDP', 'FSDP']) {
    tpu.manualSeed(0);
    const model = new nn.Sequential(new nn.Linear(2, 256), new nn.Tanh(), new nn.Linear(256, 256), new nn.Tanh(), new nn.Linear(256, 2));
    const paramBytes = model.parameters().reduce((a, p) => a + p.numel() * 4, 0);
    const m = kind === 'DDP' ? new nn.DistributedDataParallel(model, { mesh })
      : kind === 'FSDP' ? nn.fullyShard(model, { mesh })
      : nn.fullyShard(model, { mesh: tpu.initDeviceMesh([2, 2], { names: ['replicate', 'shard'] }) });
    const opt = new optim.Adam(m.parameters(), { lr: 0.01 });
    const step = () => tpu.scope(() => {
      const loss = nn.crossEntropy(m.forward(X), Y);
      loss.backward();
      opt.step();
      opt.zeroGrad();
      return loss.item();
    });
    for (let i = 0; i < WARMUP; i++) step();
    const rec = tpu.profiler.record();
    const start = performance.now();
    let loss = 0;
    for (let i = 0; i < STEPS; i++) loss = step();
    const ms = (performance.now() - start) / STEPS;
    const p = rec.stop().toJSON();
    const collectives = p.chips?.collectives ?? { count: 0, bytes: 0, byOp: {} };
    const kept = mesh.chips.map((c) => m.parameters().filter((q) => q.chip === c).reduce((a, q) => a + 3 * q.numel() * 4, 0));
    rows.push({
      kind, chips, msPerStep: ms, collectivesPerStep: collectives.count / STEPS, bytesMovedPerStep: collectives.bytes / STEPS,
      byOp: collectives.byOp, paramBytes, keptBytesPerChip: kept, lastLoss: loss,
    });
  }
}

const kib = (b) => `${(b / 1024).toFixed(1)} KiB`;
const lines = ['kind  chips  ms/step  collectives/step  moved/step     params + Adam state per chip (KiB)'];
for (const r of rows) {
  lines.push([
    r.kind.padEnd(5), String(r.chips).padStart(5), r.msPerStep.toFixed(2).padStart(8), r.collectivesPerStep.toFixed(0).padStart(17),
    kib(r.bytesMovedPerStep).padStart(12), '   ' + r.keptBytesPerChip.map((b) => (b / 1024).toFixed(0)).join(' / '),
  ].join(' '));
}
console.log(lines.join('\n'));
console.log(`(parameters: ${kib(rows[0].paramBytes)}; emulated chips share the host's cores)`);
const out = fileURLToPath(new URL('../output/bench/', import.meta.url));
mkdirSync(out, { recursive: true });
writeFileSync(`${out}distributed.json`, JSON.stringify({ date: new Date().toISOString(), steps: STEPS, batch: BATCH, rows }, null, 2));
await tpu.reset();
