// tpu.nn.utils.clipGradNorm_ over the parameters of the MLP wrapped for the 4-chip mesh (DDP,
// FSDP, HSDP, tensor parallel on [4] and [2, 2]) against PyTorch's clip_grad_norm_ of the same
// model on one process: the norm is the full gradients' (DDP's replicas counted once), and every
// chip's replica or shard of every gradient is the clipped full gradient. Every mode.
import { expect } from 'vitest';
import { mesh, mesh2d } from '../support/meshes.js';
import { tpu, type DTensor, type Tensor } from 'tpu-kernel/runtime';
import { torchTier, type TorchCase } from '../torch/torch-tier.js';
import { backward, mlpOf, MLP_INPUTS, PY_MLP } from '../support/clip-grad-mlp.js';

const { nn, distributed } = tpu;
type Module = InstanceType<typeof nn.Module>;
const PARAMS = 6;

/** Every chip's copy of each full gradient, in order: the outputs the layouts below give. */
type Layout = (wrapped: Module) => Tensor[];

/** DDP: every chip's replica, chip by chip. */
const replicas: Layout = (ddp) => (ddp.parameters() as Tensor[]).map((p) => p.grad!);
/** fullyShard: each group of `chips` joins its shards (each DTensor gradient's pieces, by chip) into the full gradient. */
const shardGroups = (groups: number[][]): Layout => (fsdp) => {
  const grads = (fsdp.parameters() as DTensor[]).map((p) => p.grad!.localTensors());
  expect(grads.length).toBe(PARAMS);
  return groups.flatMap((chips) => grads.map((pieces) => tpu.concat(chips.map((k) => pieces[k]!.toChip(0)), 0)));
};
/** Tensor parallel: each DTensor gradient gathered on every chip (every piece checked), plain ones as they are. */
const gathered: Layout = (m) => (m.parameters() as (Tensor | DTensor)[]).flatMap((p) => {
  if (!('localTensors' in p)) return [p.grad!];
  const g = p.grad!;
  return g.redistribute(g.mesh, g.placements.map(() => tpu.Replicate())).localTensors();
});
/** How many times PyTorch's gradients repeat in each layout's outputs (parameter j's copies for the TP layouts). */
const tp = (m: typeof mesh) => (model: Module) => distributed.parallelizeModule(model, m, { '0': distributed.ColwiseParallel(), '2': distributed.RowwiseParallel() });

interface Wrap { name: string; wrap: (m: Module) => Module; layout: Layout; pyGrads: string }
const PY_ALL = '[p.grad for p in m.parameters()]';
const wraps: Wrap[] = [
  { name: 'DDP', wrap: (m) => new nn.DistributedDataParallel(m, { mesh }), layout: replicas, pyGrads: `${PY_ALL} * 4` },
  { name: 'FSDP', wrap: (m) => nn.fullyShard(m, { mesh }), layout: shardGroups([[0, 1, 2, 3]]), pyGrads: PY_ALL },
  { name: 'HSDP on [2, 2]', wrap: (m) => nn.fullyShard(m, { mesh: mesh2d }), layout: shardGroups([[0, 1], [2, 3]]), pyGrads: `${PY_ALL} * 2` },
  // layers 0 and 2 are DTensors (4 gathered copies each of weight and bias), layer 4 plain
  { name: 'tensor parallel on [4]', wrap: (m) => (tp(mesh)(m), m), layout: gathered, pyGrads: '[p.grad for p in list(m.parameters())[:4] for _ in range(4)] + [p.grad for p in list(m.parameters())[4:]]' },
  { name: 'tensor parallel on [2, 2]', wrap: (m) => (tp(mesh2d)(m), m), layout: gathered, pyGrads: '[p.grad for p in list(m.parameters())[:4] for _ in range(4)] + [p.grad for p in list(m.parameters())[4:]]' },
];

/** Backward (twice with `again`: a gradient added to the clipped one), clipGradNorm_(maxNorm, normType), the norm and the layout's gradients. */
function meshCase(w: Wrap, maxNorm: number, normType: number, again = false): TorchCase {
  const pyType = normType === Infinity ? "float('inf')" : String(normType);
  return {
    name: `${w.name}, ${normType}-norm, maxNorm ${maxNorm}${again ? ', then another backward' : ''}`,
    inputs: MLP_INPUTS,
    js: (...xs) => {
      const m = w.wrap(mlpOf(xs));
      backward(m, xs[6]!, xs[7]!);
      const norm = nn.utils.clipGradNorm_(m.parameters(), maxNorm, normType);
      if (again) backward(m, xs[6]!, xs[7]!);
      return [norm, ...w.layout(m)];
    },
    py: `${PY_MLP}\nn = torch.nn.utils.clip_grad_norm_(m.parameters(), ${maxNorm}, ${pyType})\n${again ? 'step()\n' : ''}result = [n] + ${w.pyGrads}`,
  };
}

const cases = wraps.flatMap((w) => [meshCase(w, 0.05, 2), meshCase(w, 0.01, Infinity), meshCase(w, 100, 1), meshCase(w, 0.05, 2, true)]);

torchTier('clipGradNorm_ over DDP, FSDP, HSDP and tensor-parallel parameters vs one PyTorch model', cases);
