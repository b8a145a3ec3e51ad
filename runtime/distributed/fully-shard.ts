// fullyShard (PyTorch's FSDP2 fully_shard): each parameter (a frozen one too) split on dim 0 over the chips of a
// 1-d mesh (torch.chunk sizes, uneven allowed), chip k holding shard k as a leaf. forward()
// all-gathers each parameter on every chip (their gradient rule is a reduce-scatter, so after
// backward each shard holds its rows of the global gradient), runs each chip's replica on its
// piece of the batch and joins the outputs as DDP does. Each parameter is listed as FSDP2's: one
// DTensor of the global shape over the shards (Shard(0) on the shard axis, Replicate on the
// others), named as the module's, so parameters() counts the model's parameters once; an
// optimizer steps each chip's shard, so its state is sharded too. The full parameters live only
// while a step needs them. stateDict() gives those DTensors (FSDP2's state_dict()).
// A 2-d mesh is HSDP (fully_shard with a 2-d mesh): replicated over dim 0, sharded over dim 1;
// the all-gather and reduce-scatter run within the dim-1 groups, every chip has its own piece
// of the batch, and a gradient reducer then all-reduces the shards over the dim-0 groups.
// A sub-mesh mesh.get(axis) shards within that axis' groups, as DDP's sub-mesh splits the batch.
// Either way each shard's gradient is then the whole gradient of its rows (dtensor-grad.ts
// markWholeGrads), not a part for the DTensor's .grad to add up over the replicas.
import { Tensor } from '../tensor.js';
import { checkStateDict, Module, type IncompatibleKeys, type LoadOptions, type StateDict } from '../nn/module.js';
import { readOptions } from '../options.js';
import { noGrad } from '../autograd/grad-mode.js';
import { scope } from '../scope.js';
import { registerGradReducer } from '../autograd/grad-reducers.js';
import { DeviceMesh } from './device-mesh.js';
import { allGather, chunkSizes } from './functional-collectives.js';
import { allReduceGradBuckets, bucketsOf } from './grad-buckets.js';
import { checkMesh, checkModule, copyRows, dataParallelForward, plainParameters, replicaOf } from './replicas.js';
import { DTensor } from './dtensor.js';
import { Replicate, Shard, type Placement } from './placement.js';
import { markWholeGrads } from './dtensor-grad.js';

export interface FullyShardOptions {
  /** The chips: a 1-d mesh (FSDP), a 2-d mesh (HSDP: replicated over dim 0, sharded over dim 1), or a sub-mesh mesh.get(axis) (sharded within that axis' groups). */
  mesh: DeviceMesh;
}

/** PyTorch's bucket_cap_mb default, for HSDP's all-reduce of the shards' gradients. */
const HSDP_BUCKET_BYTES = 25 * 2 ** 20;

/** The axis whose groups shard the parameters, and the one (HSDP) whose groups hold replicas of the shards. */
function layoutOf(who: string, mesh: DeviceMesh): { shardAxis: string; replicateAxis: string | null } {
  if (mesh.axis !== null) return { shardAxis: mesh.axis, replicateAxis: null };
  if (mesh.ndim === 1) return { shardAxis: mesh.names[0]!, replicateAxis: null };
  if (mesh.ndim === 2) return { shardAxis: mesh.names[1]!, replicateAxis: mesh.names[0]! };
  throw new RangeError(`${who}: options.mesh must be 1-d (FSDP), 2-d (HSDP: replicated over dim 0, sharded over dim 1) or a sub-mesh mesh.get(axis); got ${mesh}`);
}

/**
 * A module whose parameters are sharded over a mesh's chips: what tpu.nn.fullyShard returns.
 * @example
 * const mesh = tpu.initDeviceMesh([tpu.device().chips]);
 * tpu.nn.fullyShard(new tpu.nn.Linear(2, 8), { mesh }).stateDict().weight.placements.map(String) // ['Shard(0)']: the weight's shards, as a DTensor
 */
export class FullyShardedModule extends Module {
  readonly mesh: DeviceMesh;
  /** The mesh axis whose groups all-gather the parameters (each group holds one copy of every row). */
  readonly shardAxis: string;
  /** Each parameter's shards (one per chip, chip k's the rows of its rank along shardAxis) and each buffer's copies, by the module's tensor. */
  readonly #locals: Map<Tensor, Tensor[]>;
  /** The first row of each chip's shard, by the module's parameter. */
  readonly #starts = new Map<Tensor, number[]>();
  /** Each parameter as a DTensor over its shards, by the module's parameter. */
  readonly #params = new Map<Tensor, DTensor>();
  /** The parameters' DTensors' mesh (the whole mesh, also for a sub-mesh) and placements. */
  readonly #whole: DeviceMesh;
  readonly #placements: readonly Placement[];

  constructor(readonly module: Module, options: FullyShardOptions) {
    super();
    const who = 'nn.fullyShard';
    checkModule(who, module);
    const o = readOptions<FullyShardOptions>(who, options, ['mesh']);
    this.mesh = checkMesh(who, o.mesh);
    const { shardAxis, replicateAxis } = layoutOf(who, this.mesh);
    this.shardAxis = shardAxis;
    const ranks = this.mesh.ranks(shardAxis);
    const n = this.mesh.shape[this.mesh.axisIndex(shardAxis, who)]!;
    // Every parameter is sharded, a frozen one too (FSDP2's); buffers are copied to every chip.
    const params = new Set(plainParameters(who, module).map(([, p]) => p));
    this.#locals = new Map(module.namedTensors().map(([name, t]) => {
      if (!params.has(t)) return [t, this.mesh.chips.map((chip) => (chip === t.chip ? t : copyRows(t, 0, t.shape[0] ?? 1, chip)))];
      if (t.ndim === 0) throw new RangeError(`${who}: parameter '${name}' is 0-d; parameters are sharded on dim 0, so they need at least one dimension (PyTorch's fully_shard refuses scalar parameters too)`);
      const sizes = chunkSizes(t.shape[0]!, n);
      const starts = ranks.map((r) => sizes.slice(0, r).reduce((a, b) => a + b, 0));
      this.#starts.set(t, starts);
      const shards = this.mesh.chips.map((chip, k) => copyRows(t, starts[k]!, sizes[ranks[k]!]!, chip));
      // The full parameter is no longer kept (as fully_shard frees the unsharded one): its rows live in the shards.
      t.dispose();
      return [t, shards];
    }));
    // The DTensors live on the whole mesh (a sub-mesh's axis is the one they are sharded along).
    this.#whole = new DeviceMesh(this.mesh.shape, this.mesh.names);
    this.#placements = this.mesh.names.map((name) => (name === shardAxis ? Shard(0) : Replicate()));
    for (const p of params) {
      const d = new DTensor(this.#locals.get(p)!, this.#whole, this.#placements, p.shape);
      markWholeGrads(d);
      this.#params.set(p, d);
    }
    if (replicateAxis !== null) {
      // Each shard group saw its own part of the batch: summing the shards' gradients over the replicas gives the global ones.
      const leaves = this.mesh.chips.map((_, k) => plainParameters(who, module).map(([, p]) => this.#locals.get(p)![k]!));
      const buckets = bucketsOf(leaves[0]!, HSDP_BUCKET_BYTES);
      registerGradReducer(leaves.flat(), {
        reduce: (grads) => {
          allReduceGradBuckets(this.mesh, replicateAxis, leaves, buckets, grads);
        },
      });
    }
  }

  forward(...inputs: Tensor[]): Tensor {
    const full = new Map<Tensor, Tensor[]>();
    for (const [t, locals] of this.#locals) full.set(t, this.#starts.has(t) ? allGather(locals, { mesh: this.mesh, axis: this.shardAxis, dim: 0 }) : locals);
    return dataParallelForward('fullyShard', this.mesh, inputs, (k) => replicaOf(this.module, (t) => full.get(t)?.[k] ?? t));
  }

  /**
   * Each parameter once, as FSDP2's: a DTensor of its global shape over the chips' shards (give
   * them to the optimizer: it steps each shard, so its state is sharded alike).
   */
  override parameters(): DTensor[] {
    return this.namedParameters().map(([, t]) => t);
  }

  /** The parameters under the module's names. */
  override namedParameters(): [string, DTensor][] {
    return plainParameters('nn.fullyShard', this.module).map(([name, p]) => [name, this.#params.get(p)!]);
  }

  override namedChildren(): [string, Module][] {
    return [];
  }

  /** train()/eval() reach the module: each step's replicas copy its flags. */
  override train(on = true): this {
    super.train(on);
    this.module.train(on);
    return this;
  }

  /**
   * The state as FSDP2's state_dict(): each parameter a DTensor over its shards (detached, sharing
   * their storage), each buffer the mesh's first chip's copy; keyed as the module's.
   */
  override stateDict(): StateDict {
    return noGrad(() => Object.fromEntries(this.module.namedTensors().map(([name, t]) => {
      const locals = this.#locals.get(t)!;
      const value = this.#starts.has(t) ? new DTensor(locals.map((l) => l.detach()), this.#whole, this.#placements, t.shape) : locals[0]!.detach();
      return [name, value];
    })));
  }

  /**
   * Copies a state into the shards (and buffers to every chip): DTensors laid out as the
   * parameters piece by piece, and full tensors or other DTensors by their rows (FSDP2's
   * load_state_dict takes the former, set_model_state_dict with full_state_dict the latter).
   */
  override loadStateDict(state: StateDict, options: LoadOptions = {}): IncompatibleKeys {
    const mine = new Map(this.module.namedTensors());
    const keys = checkStateDict(mine, state, options);
    // scope: the rows copied to each chip are freed as soon as their values are in place.
    noGrad(() => scope(() => {
      for (const [k, t] of mine) {
        const v = state[k];
        if (v === undefined) continue;
        const locals = this.#locals.get(t)!;
        if (v instanceof DTensor && this.#starts.has(t) && this.#laidOutAsParameters(v)) {
          v.localTensors().forEach((piece, i) => locals[i]!.copy_(piece));
          continue;
        }
        const whole = v instanceof DTensor ? v.fullTensor() : v;
        locals.forEach((local, i) => {
          const rows = this.#starts.has(t) ? local.shape[0]! : (whole.shape[0] ?? 1);
          const start = this.#starts.get(t)?.[i] ?? 0;
          if (rows > 0) local.copy_((whole.ndim === 0 ? whole : whole.narrow(0, start, rows)).toChip(local.chip));
        });
      }
    }));
    return keys;
  }

  /** Whether `d`'s pieces are the parameters' shards' (same chips, mesh shape and placements). */
  #laidOutAsParameters(d: DTensor): boolean {
    const same = <T>(a: readonly T[], b: readonly T[]) => a.length === b.length && a.every((x, i) => String(x) === String(b[i]));
    return same(d.mesh.chips, this.#whole.chips) && same(d.mesh.shape, this.#whole.shape) && same(d.placements, this.#placements);
  }
}

/**
 * Shards `module`'s parameters on dim 0 over the mesh's chips (torch.distributed.fsdp.fully_shard);
 * with a 2-d mesh, HSDP: replicated over dim 0, sharded over dim 1. Use the returned module from
 * then on (the module's own parameters are freed).
 * @example
 * const mesh = tpu.initDeviceMesh([tpu.device().chips], { names: ['dp'] });
 * const fsdp = tpu.nn.fullyShard(new tpu.nn.Linear(2, 8), { mesh });
 * fsdp.parameters()[0].shape // [8, 2]: the weight, a DTensor of 4 shards on 4 chips
 */
export function fullyShard(module: Module, options: FullyShardOptions): FullyShardedModule {
  return new FullyShardedModule(module, options);
}
