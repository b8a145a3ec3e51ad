// Finds dropped tensors among the young ones with a scavenge instead of a full collection.
// A chain like x.mul(1.5).add(0.5).tanh() drops each temporary at once, but a
// FinalizationRegistry hears of it only after a full collection (gc-pressure.ts: one per
// 256 MiB of garbage, ~5-11 ms each), so the device cycled through 256 MiB+ of buffers that
// had left the CPU's cache, and each op ran up to 2x slower than on recycled warm buffers.
// Tensors are watched here by weak N-API references instead (young-weak-source.ts): a
// scavenge clears those of unreachable young objects, so a minor collection, as a batch is
// about to go out after 32 MiB or 8,192 tensors, finds the temporaries, and the session frees
// each (a pooled size right after its last use in that batch
// (protocol.ts, freeAfterLastUse)): the device reuses them while in cache. Not inside a step:
// the running function's interpreter registers keep some temporaries until it returns, and
// V8 promotes what survives two scavenges. Unreachable only: a tensor anything still
// references keeps its reference set. Tensors alive at AGE_OUT sweeps have left the young
// generation (or will): they go to the finalization registry, the old path.
import { buildAddon } from './loopgen/native.js';
import { YOUNG_WEAK_C } from './young-weak-source.js';
import type { DeviceBuffer } from './memory.js';
import { canCollect, collectYoung } from './gc-pressure.js';

/** Bytes of newly watched tensors that ask for a sweep (the W2 chain: 2 outputs of 16 MiB). */
export const SWEEP_BYTES = 32 * 2 ** 20;
/**
 * Newly watched tensors that ask for a sweep whatever their bytes: a loop of tiny ops (W1's
 * 10,000 adds of 8 floats) makes thousands a step, and each one left to the finalization
 * registry cost about 1 µs to register and survived scavenges until a full collection.
 */
export const SWEEP_COUNT = 8192;
/** Sweeps a tensor survives before it goes to the finalization registry (V8 promotes after two scavenges). */
const AGE_OUT = 2;

type WeakList = { readonly __weakList: unique symbol };
interface WeakAddon {
  list(): WeakList;
  watch(list: WeakList, object: object): void;
  sweep(list: WeakList, codes: Uint8Array, kept: object[]): void;
}

let addonOnce: Promise<WeakAddon | undefined> | undefined;

/** The weak-reference addon, built in the background (undefined: no compiler, no minor collections, or TPU_KERNEL_YOUNG_SWEEP=0). */
export function youngWeakAddon(): Promise<WeakAddon | undefined> {
  if (process.env.TPU_KERNEL_YOUNG_SWEEP === '0' || !canCollect) return Promise.resolve(undefined);
  return (addonOnce ??= buildAddon<WeakAddon>(YOUNG_WEAK_C));
}

export class YoungTensors {
  private readonly list: WeakList;
  private buffers: DeviceBuffer[] = [];
  private ages: number[] = [];
  private bytes = 0;
  private count = 0;

  /**
   * `collected`: frees the buffer of a tensor found unreachable; `old`: hands a tensor still
   * alive after AGE_OUT sweeps to the finalization registry; `settle`: drops what keeps dropped
   * tensors reachable for a while (the call sites of launches in flight hold their receivers).
   */
  constructor(
    private readonly addon: WeakAddon,
    private readonly collected: (buffer: DeviceBuffer) => void,
    private readonly old: (owner: object, buffer: DeviceBuffer) => void,
    private readonly settle: () => void,
  ) {
    this.list = addon.list();
    this.canaries.register({}, undefined);
  }

  /**
   * Sweeps after each full collection too (V8's own, or a test's gc()), in the task where the
   * finalization registry's callbacks run: a dead canary says one happened. A scavenge keeps
   * the canary (registry targets survive those), so it costs nothing per minor collection.
   */
  private readonly canaries = new FinalizationRegistry<undefined>(() => {
    this.sweep();
    this.canaries.register({}, undefined);
  });

  watch(owner: object, buffer: DeviceBuffer): void {
    this.addon.watch(this.list, owner);
    this.buffers.push(buffer);
    this.ages.push(0);
    this.bytes += buffer.bytes;
    this.count++;
  }

  /** A minor collection and a sweep, once SWEEP_BYTES or SWEEP_COUNT of tensors were watched since the last. */
  sweepIfDue(): void {
    if (this.bytes < SWEEP_BYTES && this.count < SWEEP_COUNT) return;
    this.settle();
    collectYoung();
    this.sweep();
  }

  /** Frees the buffers of watched tensors found collected (by the last collection, minor or full). */
  sweep(): void {
    this.bytes = 0;
    this.count = 0;
    const n = this.buffers.length;
    if (n === 0) return;
    const codes = new Uint8Array(n);
    for (let i = 0; i < n; i++) codes[i] = this.buffers[i]!.freed || this.ages[i]! + 1 >= AGE_OUT ? 1 : 0;
    const kept: object[] = [];
    this.addon.sweep(this.list, codes, kept);
    const buffers: DeviceBuffer[] = [];
    const ages: number[] = [];
    let k = 0;
    for (let i = 0; i < n; i++) {
      const b = this.buffers[i]!;
      if (codes[i] === 0) {
        buffers.push(b);
        ages.push(this.ages[i]! + 1);
      } else if (codes[i] === 1) {
        const owner = kept[k++];
        if (owner && !b.freed) this.old(owner, b);
      } else if (!b.freed) this.collected(b);
    }
    this.buffers = buffers;
    this.ages = ages;
  }
}
