// fullyShard (PyTorch's FSDP2 fully_shard): each parameter split on dim 0 over the chips of a
// 1-d mesh (torch.chunk sizes, uneven allowed), chip k holding shard k as a leaf. forward()
// all-gathers each parameter on every chip (their gradient rule is a reduce-scatter, so after
// backward each shard holds its rows of the global gradient), runs each chip's replica on its
// piece of the batch and joins the outputs as DDP does. The optimizer is given the shards,
// so its state is sharded too. The full parameters live only while a step needs them.
import { Tensor } from '../tensor.js';
import { checkStateDict, Module, type LoadOptions, type StateDict } from '../nn/module.js';
import { readOptions } from '../options.js';
import { noGrad } from '../autograd/grad-mode.js';
import { concat } from '../ops/concat.js';
import type { DeviceMesh } from './device-mesh.js';
import { allGather, chunkSizes } from './functional-collectives.js';
import { checkMesh, checkModule, copyRows, dataParallelForward, replicaOf } from './replicas.js';

export interface FullyShardOptions {
  /** The chips (a 1-d mesh, tpu.initDeviceMesh([n])). */
  mesh: DeviceMesh;
}

/**
 * A module whose parameters are sharded over a mesh's chips: what tpu.nn.fullyShard returns.
 * @example
 * const mesh = tpu.initDeviceMesh([tpu.device().chips]);
 * tpu.nn.fullyShard(new tpu.nn.Linear(2, 8), { mesh }).stateDict().weight.shape // [8, 2]: the full weight
 */
export class FullyShardedModule extends Module {
  readonly mesh: DeviceMesh;
  /** Each parameter's shards (one per chip) and each buffer's copies (chip k's), by the module's tensor. */
  readonly #locals: Map<Tensor, Tensor[]>;

  constructor(readonly module: Module, options: FullyShardOptions) {
    super();
    const who = 'nn.fullyShard';
    checkModule(who, module);
    const o = readOptions<FullyShardOptions>(who, options, ['mesh']);
    this.mesh = checkMesh(who, o.mesh);
    const n = this.mesh.size;
    this.#locals = new Map(module.namedTensors().map(([name, t]) => {
      if (!t.requiresGrad) return [t, this.mesh.chips.map((chip) => (chip === t.chip ? t : copyRows(t, 0, t.shape[0] ?? 1, chip)))];
      if (t.ndim === 0) throw new RangeError(`${who}: parameter '${name}' is 0-d; parameters are sharded on dim 0, so they need at least one dimension`);
      const sizes = chunkSizes(t.shape[0]!, n);
      const shards = this.mesh.chips.map((chip, k) => copyRows(t, sizes.slice(0, k).reduce((a, b) => a + b, 0), sizes[k]!, chip));
      // The full parameter is no longer kept (as fully_shard frees the unsharded one): its rows live in the shards.
      t.dispose();
      return [t, shards];
    }));
  }

  forward(...inputs: Tensor[]): Tensor {
    const full = new Map<Tensor, Tensor[]>();
    for (const [t, locals] of this.#locals) full.set(t, t.requiresGrad ? allGather(locals, { mesh: this.mesh, dim: 0 }) : locals);
    return dataParallelForward('fullyShard', this.mesh, inputs, (k) => replicaOf(this.module, (t) => full.get(t)?.[k] ?? t));
  }

  /** The shards of every parameter, chip by chip (give them to the optimizer: its state is sharded alike). */
  override parameters(): Tensor[] {
    return this.namedParameters().map(([, t]) => t);
  }

  override namedParameters(): [string, Tensor][] {
    return this.mesh.chips.flatMap((_, k) => this.module.namedParameters().map(([name, p]) => [`${k}.${name}`, this.#locals.get(p)![k]!] as [string, Tensor]));
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

  /** The full state (each parameter's shards joined) on the mesh's first chip, keyed as the module's. */
  override stateDict(): StateDict {
    const first = this.mesh.chips[0]!;
    return noGrad(() => Object.fromEntries(this.module.namedTensors().map(([name, t]) => {
      const locals = this.#locals.get(t)!;
      return [name, t.requiresGrad ? concat(locals.map((s) => s.toChip(first)), 0) : locals[0]!];
    })));
  }

  /** Copies a full state dict's rows into the shards (and buffers to every chip). */
  override loadStateDict(state: StateDict, options: LoadOptions = {}): void {
    const mine = new Map(this.module.namedTensors());
    checkStateDict(mine, state, options);
    noGrad(() => {
      for (const [k, t] of mine) {
        const v = state[k];
        if (v === undefined) continue;
        let start = 0;
        for (const local of this.#locals.get(t)!) {
          const rows = t.requiresGrad ? local.shape[0]! : (v.shape[0] ?? 1);
          if (rows > 0) local.copy_((v.ndim === 0 ? v : v.narrow(0, start, rows)).toChip(local.chip));
          if (t.requiresGrad) start += rows;
        }
      }
    });
  }
}

/**
 * Shards `module`'s parameters on dim 0 over the mesh's chips (torch.distributed.fsdp.fully_shard):
 * use the returned module from then on (the module's own parameters are freed).
 * @example
 * const mesh = tpu.initDeviceMesh([tpu.device().chips], { names: ['dp'] });
 * const fsdp = tpu.nn.fullyShard(new tpu.nn.Linear(2, 8), { mesh });
 * fsdp.parameters()[0].shape // on 4 chips: [2, 2] (weight [8, 2] in 4 shards)
 */
export function fullyShard(module: Module, options: FullyShardOptions): FullyShardedModule {
  return new FullyShardedModule(module, options);
}
