// DistributedDataParallel: the module's parameters replicated on every chip of a mesh (chip
// mesh.chips[0] holds the module itself, the others copies), the batch split on dim 0, each
// chip running its replica; after backward, a gradient reducer all-reduces each chip's
// gradients in buckets (flattened and joined, one all-reduce per bucket, as PyTorch's
// reducer), so every replica holds the global gradient and the optimizer keeps them equal.
// Given a sub-mesh (mesh.get('dp')), as PyTorch's DDP given a 1-d slice of a 2-d mesh, the batch
// is split along that axis only and the all-reduce runs within its groups: the chips that share
// a coordinate on it run the same piece (the other axes are left to other parallelism).
import { Tensor } from '../tensor.js';
import { Module, type IncompatibleKeys, type LoadOptions, type StateDict } from '../nn/module.js';
import { readOptions } from '../options.js';
import { noGrad } from '../autograd/grad-mode.js';
import { scope } from '../scope.js';
import { registerGradReducer } from '../autograd/grad-reducers.js';
import type { DeviceMesh } from './device-mesh.js';
import { allReduceGradBuckets, bucketsOf } from './grad-buckets.js';
import { registerGradientCopies } from './gradient-copies.js';
import { checkMesh, checkModule, copyRows, dataParallelForward, plainParameters, replicaOf } from './replicas.js';
import { specializedOptions } from '../jit/live-number.js';

export interface DDPOptions {
  /** The chips: a mesh of any shape (every chip a replica with its own piece of the batch), or a sub-mesh mesh.get(axis) (the batch split along that axis only). */
  mesh: DeviceMesh;
  /** Bucket size cap in MiB (PyTorch's bucket_cap_mb, default 25). */
  bucketCapMB?: number;
}

/**
 * Data parallel training over a mesh's chips (torch.nn.parallel.DistributedDataParallel).
 * forward(x) splits x on dim 0 over the chips and returns the outputs joined as one tensor
 * on the first chip, so the loss is the global batch's; parameters() lists every chip's
 * replica (give it to the optimizer); stateDict() is the module's own (one copy, no prefix).
 * @example
 * const mesh = tpu.initDeviceMesh([tpu.device().chips], { names: ['dp'] });
 * const ddp = new tpu.nn.DistributedDataParallel(new tpu.nn.Linear(2, 1), { mesh });
 * ddp.forward(tpu.ones([8, 2])).shape // [8, 1]
 */
export class DistributedDataParallel extends Module {
  readonly mesh: DeviceMesh;
  /** The parameter buckets (indices into the module's parameters), last parameters first. */
  readonly buckets: readonly number[][];
  /** Chip k's copy of each of the module's tensors (chip 0: the module's own). */
  readonly #copies: Map<Tensor, Tensor>[];

  constructor(readonly module: Module, options: DDPOptions) {
    super();
    const who = 'nn.DistributedDataParallel';
    checkModule(who, module);
    const o = specializedOptions(readOptions<DDPOptions>(who, options, ['mesh', 'bucketCapMB']));
    this.mesh = checkMesh(who, o.mesh);
    const cap = o.bucketCapMB ?? 25;
    if (typeof cap !== 'number' || !(cap > 0)) throw new RangeError(`${who}: bucketCapMB must be a positive number; got ${JSON.stringify(o.bucketCapMB)}`);
    const tensors = module.namedTensors().map(([, t]) => t);
    const first = this.mesh.chips[0]!;
    tensors.forEach((t) => {
      if (t.chip !== first) throw new RangeError(`${who}: the module's tensors must be on the mesh's first chip ${first}; ${t.describe()} is on chip ${t.chip}`);
    });
    // The other chips start from chip 0's values (PyTorch broadcasts rank 0's at construction).
    this.#copies = this.mesh.chips.map((chip) => new Map(tensors.map((t) => [t, chip === first ? t : copyRows(t, 0, t.shape[0] ?? 1, chip)])));
    const params = plainParameters(who, module).map(([, p]) => p);
    // Every replica holds the global gradient after backward: a norm of the gradients counts one.
    params.forEach((p) => registerGradientCopies(this.#copies.map((m) => m.get(p)!)));
    this.buckets = bucketsOf(params, cap * 2 ** 20);
    const leaves = this.#copies.map((m) => params.map((p) => m.get(p)!));
    // The sum over a group is the global gradient: the loss is the global batch's.
    registerGradReducer(this.parameters(), { reduce: (grads) => allReduceGradBuckets(this.mesh, undefined, leaves, this.buckets, grads) });
  }

  forward(...inputs: Tensor[]): Tensor {
    return dataParallelForward('DistributedDataParallel', this.mesh, inputs, (k) => (k === 0 ? this.module : replicaOf(this.module, (t) => this.#copies[k]!.get(t) ?? t)));
  }

  /** Every chip's replica of every parameter (the optimizer updates them all alike). */
  override parameters(): Tensor[] {
    return this.#copies.flatMap((m) => plainParameters('nn.DistributedDataParallel', this.module).map(([, p]) => m.get(p)!));
  }

  override namedParameters(): [string, Tensor][] {
    return this.#copies.flatMap((m, k) => plainParameters('nn.DistributedDataParallel', this.module).map(([n, p]) => [`${k}.${n}`, m.get(p)!] as [string, Tensor]));
  }

  override namedChildren(): [string, Module][] {
    return [['module', this.module]];
  }

  /** The module's state (one copy; keys as the module's, so it loads into the plain module). */
  override stateDict(): StateDict {
    return this.module.stateDict();
  }

  /** Loads into the module and copies the values to every chip's replica. */
  override loadStateDict(state: StateDict, options: LoadOptions = {}): IncompatibleKeys {
    const keys = this.module.loadStateDict(state, options);
    // scope: the copies sent to each chip are freed as soon as their values are in place.
    noGrad(() => scope(() => {
      for (const m of this.#copies.slice(1)) for (const [t, c] of m) c.copy_(t.toChip(c.chip));
    }));
    return keys;
  }
}
