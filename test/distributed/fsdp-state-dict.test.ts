// fullyShard's state dicts against PyTorch FSDP2's, which fsdp2_state_dict_reference.py runs on a
// gloo world of 4 CPU processes: stateDict() gives each parameter (a frozen one too) as a DTensor
// sharded on dim 0 and each buffer as a tensor; loadStateDict takes those DTensors and full
// tensors (FSDP2's load_state_dict and set_model_state_dict with full_state_dict); the
// optimizer's state is DTensors too and round-trips. Frozen parameters are sharded, as FSDP2's.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { tpu, DTensor, type Tensor } from 'tpu-kernel/runtime';
import { mesh } from '../support/meshes.js';

const { nn } = tpu;

interface Described { type: 'DTensor' | 'Tensor'; shape: number[]; placements?: string[]; locals?: number[][]; requiresGrad: boolean }
interface Reference {
  stateDict: Record<string, Described>;
  parameters: Record<string, Described>;
  optimizer: Record<string, Record<string, Described>>;
  loadedFull2Weight: number[][];
}

function describeValue(v: Tensor | DTensor): Described {
  if (v instanceof DTensor) {
    return { type: 'DTensor', shape: [...v.shape], placements: v.placements.map(String), locals: v.localTensors().map((t) => [...t.shape]), requiresGrad: v.requiresGrad };
  }
  return { type: 'Tensor', shape: [...v.shape], requiresGrad: v.requiresGrad };
}
const describeAll = (entries: [string, Tensor | DTensor][]) => Object.fromEntries(entries.map(([k, v]) => [k, describeValue(v)]));

/** The reference's model: 0.weight frozen. */
function model() {
  const m = new nn.Sequential(new nn.Linear(2, 10), new nn.BatchNorm1d(10), new nn.Linear(10, 3));
  (m.layers[0] as InstanceType<typeof nn.Linear>).weight.requiresGrad_(false);
  return m;
}
const X = tpu.arange(16, { dtype: 'float32' }).reshape([8, 2]).div(8); // 2 rows per chip: BatchNorm needs more than 1
const arangeState = (state: Record<string, Tensor | DTensor>) =>
  Object.fromEntries(Object.entries(state).map(([k, v]) => [k, tpu.arange(v.shape.reduce((a, b) => a * b, 1), { dtype: v.dtype }).reshape([...v.shape])]));

let ref: Reference;
beforeAll(async () => {
  const out = join(tmpdir(), `fsdp2-state-dict-${process.pid}.json`);
  const script = fileURLToPath(new URL('./fsdp2_state_dict_reference.py', import.meta.url));
  // not spawnSync: the 4 processes take a minute, and a blocked worker loses its line to Vitest
  await promisify(execFile)('python3', [script, out]).catch((e: Error & { stderr?: string }) => {
    throw new Error(`fsdp2_state_dict_reference.py failed: ${e.stderr ?? e.message}`);
  });
  ref = JSON.parse(readFileSync(out, 'utf8')) as Reference;
  rmSync(out);
}, 300_000);

describe("fullyShard's state dicts are FSDP2's", () => {
  it('stateDict(): parameters (frozen too) as DTensors sharded on dim 0, buffers as tensors; parameters() alike', () => {
    const fsdp = nn.fullyShard(model(), { mesh });
    expect(describeAll(Object.entries(fsdp.stateDict()))).toEqual(ref.stateDict);
    // parameters() keep requiresGrad (the frozen one false); the state dict's are detached
    expect(describeAll(fsdp.namedParameters())).toEqual(ref.parameters);
  });

  it('loadStateDict takes full tensors (set_model_state_dict, full_state_dict) and its own DTensors; each chip gets its rows', () => {
    const fsdp = nn.fullyShard(model(), { mesh });
    fsdp.loadStateDict(arangeState(fsdp.stateDict()));
    const w = fsdp.namedParameters().find(([k]) => k === '2.weight')![1];
    expect(w.localTensors().map((t) => Array.from(t.dataSync()))).toEqual(ref.loadedFull2Weight);
    // its own DTensors, piece by piece: another sharded model gets the same values
    const other = nn.fullyShard(model(), { mesh });
    other.loadStateDict(fsdp.stateDict());
    for (const [k, v] of Object.entries(other.stateDict())) expect(Array.from(v.dataSync()), k).toEqual(Array.from(arangeState(fsdp.stateDict())[k]!.dataSync()));
  });

  it('a DTensor state laid out as the parameters loads without a collective; a plain module loads it by its full value', async () => {
    const fsdp = nn.fullyShard(model(), { mesh });
    const state = arangeState(fsdp.stateDict());
    const source = nn.fullyShard(model(), { mesh });
    source.loadStateDict(state);
    const sharded = source.stateDict();
    const plain = model();
    const collectives = async (load: () => void) => {
      await tpu.sync();
      const rec = tpu.profiler.record();
      load();
      await tpu.sync();
      return rec.stop().toJSON().chips!.collectives.count;
    };
    // the parameters (the buffers are chip 0's copies, sent to every chip)
    const params = Object.fromEntries(Object.entries(sharded).filter(([, v]) => v instanceof DTensor));
    expect(Object.keys(params).length).toBe(6);
    expect(await collectives(() => fsdp.loadStateDict(params, { strict: false }))).toBe(0);
    fsdp.loadStateDict(sharded);
    for (const [k, v] of Object.entries(fsdp.stateDict())) expect(Array.from(v.dataSync()), k).toEqual(Array.from(state[k]!.dataSync()));
    // the counter counts: the plain module gathers each DTensor
    expect(await collectives(() => plain.loadStateDict(params, { strict: false }))).toBeGreaterThan(0);
    plain.loadStateDict(sharded);
    for (const [k, v] of Object.entries(plain.stateDict())) expect(Array.from(v.dataSync()), k).toEqual(Array.from(state[k]!.dataSync()));
  });

  it("the optimizer's state: DTensors sharded as FSDP2's, and a stateDict round trip trains on exactly as the original", () => {
    const fsdp = nn.fullyShard(model(), { mesh });
    const trainable = () => fsdp.parameters().filter((p) => p.requiresGrad);
    const opt = new tpu.optim.Adam(trainable(), { lr: 0.1 });
    const step = (m: InstanceType<typeof nn.Module>, o: InstanceType<typeof tpu.optim.Adam>) => {
      m.forward(X).sum().backward();
      o.step();
      o.zeroGrad();
    };
    step(fsdp, opt);
    const saved = opt.stateDict();
    const kinds = (s: typeof saved) => Object.fromEntries(Object.entries(s.state).map(([i, st]) => [i, Object.keys(st).map((k) => [k, st[k] instanceof DTensor ? st[k].placements.map(String) : undefined])]));
    const want = Object.fromEntries(Object.entries(ref.optimizer).map(([i, st]) => [i, Object.entries(st).map(([k, d]) => [k.replace(/_(.)/g, (_, c: string) => c.toUpperCase()), d.placements])]));
    // PyTorch's step is a tensor, this one's a number
    for (const st of Object.values(want)) st.find((e) => e[0] === 'step')![1] = undefined;
    expect(kinds(saved)).toEqual(want);
    // the round trip: a fresh sharded model and optimizer loaded from both state dicts
    const copy = nn.fullyShard(model(), { mesh });
    copy.loadStateDict(fsdp.stateDict());
    const copyOpt = new tpu.optim.Adam(copy.parameters().filter((p) => p.requiresGrad), { lr: 0.1 });
    copyOpt.loadStateDict(saved);
    step(fsdp, opt);
    step(copy, copyOpt);
    for (const [k, v] of Object.entries(copy.stateDict())) expect(Array.from(v.dataSync()), k).toEqual(Array.from(fsdp.stateDict()[k]!.dataSync()));
    // and the frozen weight did not move
    expect(Array.from(copy.stateDict()['0.weight']!.dataSync())).toEqual(Array.from(fsdp.stateDict()['0.weight']!.dataSync()));
  });
});

describe('frozen parameters under fullyShard', () => {
  it('are sharded (a quarter per chip), gathered for forward, get no gradient, and give the one-chip output', () => {
    tpu.manualSeed(0);
    const one = model();
    const sharded = model();
    sharded.loadStateDict(one.stateDict());
    tpu.sync();
    const before = tpu.memory().chips.map((c) => c.liveBytes);
    const fsdp = nn.fullyShard(sharded, { mesh });
    tpu.sync();
    const frozen = fsdp.namedParameters().find(([k]) => k === '0.weight')![1];
    expect([frozen.requiresGrad, frozen.placements.map(String), frozen.localTensors().map((t) => t.shape[0])]).toEqual([false, ['Shard(0)'], [3, 3, 3, 1]]);
    // chip 1 holds its rows of every parameter and a copy of each buffer: 0.weight's 3 rows of 2, not all 10
    const floats = 3 * 2 + 3 + 3 + 3 + 1 * 10 + 1 + (10 + 10);
    expect(tpu.memory().chips[1]!.liveBytes - before[1]!).toBe(floats * 4 + 8); // + num_batches_tracked (int64)
    one.eval();
    fsdp.eval();
    const y = fsdp.forward(X);
    const want = one.forward(X).dataSync();
    y.dataSync().forEach((v, i) => expect(v).toBeCloseTo(want[i]!, 5));
    y.sum().backward();
    expect(frozen.grad).toBeNull();
    expect(frozen.localTensors().every((t) => t.grad === null)).toBe(true);
  });
});
