// The public Tensor: static shape and dtype on the host; its value lives on the TPU session
// (a device buffer) or, in fused mode, as a recipe not yet run (a TraceNode). Running a
// recipe and freeing a buffer belong to the modes, reached through one interface
// (ValueKeeper) so this file needs nothing above it. Op methods (add, matmul, ...) are
// attached by the op definition files in runtime/ops/, one file per op family.
import type { Device } from './device-argument.js';
import { storageToHost, type DType, type HostArray } from './dtype.js';
import { formatShape, normalizeDim, numel, type Shape } from './shape.js';
import { isOptions, readOptions } from './options.js';
import { describe } from './shape-args.js';
import type { DeviceBuffer } from './device/memory.js';
import { chipSession } from './device/current.js';
import type { Primitive } from './primitive.js';
import type { CallSite } from './call-site.js';
import { specialized, type LiveNumber } from './jit/live-number.js';
import { noteGradCleared } from './jit/trace-record.js';
import { noteGradHandedOut } from './autograd/release-grad.js';
import type { GradNode } from './autograd/tape.js';
import type { ViewOf } from './views/view-tracking.js';
import { noteCreated } from './scope.js';
import { formatTensorHtml, formatTensorText } from './tensor-format.js';
import type { BoolTensor } from './bool-tensor.js';

/** A tensor's values as nested JS arrays (array(), tolist()): numbers, or booleans of a bool tensor. */
export type NestedArray<T extends number | boolean = number | boolean> = T | NestedArray<T>[];

/** A JS scalar operand, fed to the program by value at each run (never a baked constant). */
export interface WeakScalar {
  readonly value: number;
  readonly dtype: DType;
  /** Where tpu.compile re-reads the value on a replay (else the value is the trace's). */
  readonly live?: LiveNumber;
}

/** A recorded op application: the recipe of a tensor that is not (yet) in device memory. */
export interface TraceNode {
  readonly op: Primitive;
  readonly inputs: readonly (Tensor | WeakScalar)[];
  readonly attrs: unknown;
  readonly shape: Shape;
  readonly dtype: DType;
  /** Where it was called (null when call sites are off). */
  readonly site: CallSite | null;
  /** The chip that computes it (its tensor operands' chip). */
  readonly chip: number;
  /** The fused region it waits in, until that region runs (null: not pending). */
  region: PendingRegion | null;
  /** Ops of its own region that consume it. */
  consumers: number;
  /** The binding that last numbered it (bind-program.ts: a stamp, not a Map, for regions of 512 ops). */
  boundBy: number;
  /** Its node index in that binding. */
  boundAt: number;
}

/**
 * Device buffers kept alive for the recipes one region left unmaterialized (modes/recipes.ts):
 * shared by those values, released when the last of them is materialized, disposed or collected.
 */
export interface PinGroup {
  readonly buffers: readonly DeviceBuffer[];
  /** Live values holding it, not yet materialized or disposed (collected ones still count). */
  holders: number;
}

/** A fused region with recorded work (modes/region.ts): reading one of its values runs it. */
export interface PendingRegion {
  flush(reason: string, required: readonly Tensor[]): void;
}

// instanceof, not `'value' in v`: a tensor has no `value`, and an `in` test misses through
// its prototype's hundreds of methods (a megamorphic lookup in every recorded op's operands).
export function isScalar(v: Tensor | WeakScalar): v is WeakScalar {
  return !(v instanceof Tensor);
}

/** What a tensor asks of the machinery that computes and frees values (modes/values.ts). */
export interface ValueKeeper {
  /** Throws when values may not be read now (a compiled function is being traced). */
  checkRead(what: string): void;
  /** Brings t's value into device memory (runs its recipe: a sync point). */
  materialize(t: Tensor, reason: string): void;
  /** t's value is getting a buffer (its recipe still set): the recipe no longer needs the buffers it reads. */
  materialized(t: Tensor): void;
  /** t, a recipe holding pins, was disposed: no one can read it now. */
  disposedRecipe(t: Tensor): void;
  /** Frees the buffer now, or once nothing that reads it (a kept recipe, the pending region) is left. */
  disposeBuffer(b: DeviceBuffer): void;
}

const unwired = (): never => {
  throw new Error('tensor values need the runtime: import tpu-kernel/runtime (runtime/index.ts)');
};
let keeper: ValueKeeper = { checkRead: unwired, materialize: unwired, materialized: unwired, disposedRecipe: unwired, disposeBuffer: unwired };

export function setValueKeeper(k: ValueKeeper): void {
  keeper = k;
}

/** Recomputes a view from its base (views/stale-views.ts registers it; tensor.ts knows no ops). */
let refreshView: (view: Tensor) => void = () => {};
export function setViewRefresher(f: (view: Tensor) => void): void {
  refreshView = f;
}

/**
 * Brings a view up to date before its value is read: its base was written in place since it
 * was computed. Views are recomputed when read, not when the base is written, so views
 * dropped but not yet collected (a loop's w.T of each step) cost nothing.
 */
export function freshen(t: Tensor): void {
  const v = t._viewOf;
  if (v !== undefined && v.seen !== v.base._version) refreshView(t);
}

/** `x.data = v` (runtime/views/data-assignment.ts): above this file, as the in-place ops are. */
let assignData: (target: Tensor, value: unknown) => void = () => {
  throw new Error('x.data = v: the runtime\'s in-place ops are not loaded');
};
export function setDataAssigner(f: (target: Tensor, value: unknown) => void): void {
  assignData = f;
}

export class Tensor {
  readonly shape: Shape;
  readonly dtype: DType;
  /** Device memory holding the value (possibly still being computed on the device). */
  _buf: DeviceBuffer | null = null;
  /** The recipe, while the value is not in device memory. */
  _node: TraceNode | null;
  /** Buffers its recipe keeps alive after its region ran without materializing it. */
  _pins: PinGroup | null = null;
  disposed = false;
  /** Made inside a composed op and not returned by it (see temporaries()). */
  _temporary = false;
  /** The chip whose memory holds its value (0 unless made on another with { chip } or toChip). */
  readonly chip: number;
  /** Made by an op without tensor operands (a constant), with several chips: makes it again on another chip. */
  _remake: ((chip: number) => Tensor) | null = null;
  /**
   * A computed result's strides over its own storage when they are not row-major (PyTorch's
   * strides of results, views/result-layout.ts); a view's are its _viewOf's. A field of every
   * tensor, so that setting it keeps one object shape.
   */
  _strides: readonly number[] | undefined = undefined;
  // Autograd's, views' and in-place updates' fields, set on some tensors only, are fields of
  // every tensor too: set later, each order of them made a map of its own, and one unused in a
  // step died in the next full collection, deoptimizing every function whose code embedded it
  // (V8 "weak objects": a steady training loop recompiled ~25 hot functions every 1.5 s).
  /** True for leaves that asked for gradients and for values computed from them. */
  requiresGrad = false;
  /** When it last started requiring grad (autograd/grad-clock.ts; 0: from its creation). */
  _gradSince = 0;
  /** When detach_() cut it from its graph (0: never): nodes recorded before still reach its old node. */
  _gradUntil = 0;
  /** The gradient behind `grad`. */
  _grad: Tensor | null = null;
  /** A non-leaf whose gradient backward() keeps in .grad (retainGrad()). */
  _retainsGrad = false;
  /** How a non-leaf was computed (null for leaves). */
  _gradNode: GradNode | null = null;
  /** Counts in-place writes: backward refuses operands written since they were recorded. */
  _version = 0;
  /** The _version of its last in-place write made with gradients on (its views then rejoin the graph when read). */
  _gradWriteVersion = 0;
  /** Stand-ins for this tensor's values before in-place writes recorded in a graph, by version. */
  _past: Map<number, Tensor> | undefined = undefined;
  /** The size of _past at which its freed entries are next dropped. */
  _pastPruneAt: number | undefined = undefined;
  /** On a stand-in: the error that reading its value throws. */
  _stale: (() => Error) | undefined = undefined;
  /** The tensor whose version counter this one shares (PyTorch's views share their base's). */
  _versionOf: Tensor | undefined = undefined;
  /** What this view views and how (views/view-tracking.ts). */
  _viewOf: ViewOf | undefined = undefined;
  /** The tensor whose buffer this one adopted in an in-place update (keeps it alive). */
  _valueOwner: Tensor | undefined = undefined;
  /** Recipes kept by its region that read this recipe (modes/recipes.ts: they keep it when it goes). */
  _keptReaders: Tensor | Tensor[] | undefined = undefined;

  /** Accumulated gradient of a leaf after backward(); null before. */
  get grad(): Tensor | null {
    // handed out: zeroGrad leaves it to the user (autograd/release-grad.ts)
    if (this._grad) noteGradHandedOut(this._grad);
    return this._grad;
  }
  set grad(g: Tensor | null) {
    // emptied inside a function tpu.compile traces (zeroGrad): its replays replace, not add to, this gradient
    if (g === null) noteGradCleared(this);
    this._grad = g;
  }

  constructor(node: TraceNode | null, shape?: Shape, dtype?: DType, chip = 0) {
    this._node = node;
    // frozen: `x.shape.reverse()` or `s = x.shape; s[0] = 1` would otherwise rewrite x's own shape
    // (PyTorch's torch.Size is immutable); a frozen array reads as fast as a plain one
    this.shape = Object.freeze(node ? node.shape : shape!);
    this.dtype = node ? node.dtype : dtype!;
    this.chip = node ? node.chip : chip;
    noteCreated(this);
  }

  /** A tensor over a buffer already in device memory. */
  static fromBuffer(buffer: DeviceBuffer, shape: Shape, dtype: DType): Tensor {
    const t = new Tensor(null, shape, dtype, buffer.chip);
    t._materialized(buffer);
    return t;
  }

  /** Called when the tensor's value gets a device buffer. */
  _materialized(buffer: DeviceBuffer): void {
    keeper.materialized(this); // sees the recipe that goes
    this._buf = buffer;
    this._node = null;
    chipSession(buffer.chip).track(this, buffer);
  }

  get device(): Device {
    return `tpu:${this.chip}`;
  }
  get ndim(): number {
    return this.shape.length;
  }
  /**
   * The shape (torch.Tensor.size()), or the size of one dim, negative counting from the end,
   * positionally or in the options as every dim is (PyTorch's x.size(dim=1)).
   * @example tpu.zeros([2, 3]).size() // [2, 3]
   * @example tpu.zeros([2, 3]).size(-1) // 3
   * @example tpu.zeros([2, 3]).size({ dim: 1 }) // 3
   */
  size(): number[];
  size(dim: number | { dim: number }): number;
  size(dimOrOptions?: number | { dim?: number }): number[] | number {
    const dim: unknown = specialized(isOptions(dimOrOptions) ? readOptions<{ dim: number }>('size', dimOrOptions, ['dim']).dim : dimOrOptions);
    if (dim === undefined) return [...this.shape];
    if (typeof dim !== 'number') throw new TypeError(`size: dim must be an integer; got ${describe(dim)}`);
    if (this.ndim === 0) throw new RangeError(`size: dim ${dim} is out of range: the tensor is 0-d (shape []), it has no dims`);
    return this.shape[normalizeDim('size', dim, this.ndim)]!;
  }
  /**
   * The number of dims (torch.Tensor.dim; also x.ndim).
   * @example tpu.zeros([2, 3]).dim() // 2
   */
  dim(): number {
    return this.shape.length;
  }
  /**
   * The number of dims (torch.Tensor.ndimension, the same as dim()).
   * @example tpu.zeros([2, 3]).ndimension() // 2
   */
  ndimension(): number {
    return this.shape.length;
  }
  /**
   * Number of elements (torch.numel).
   * @example tpu.zeros([2, 3]).numel() // 6
   */
  numel(): number {
    return numel(this.shape);
  }

  private _shapeKey: string | undefined;
  /**
   * The shape as a cache-key fragment ("2,3"), computed once.
   * @example tpu.zeros([2, 3]).shapeKey() // '2,3'
   */
  shapeKey(): string {
    return (this._shapeKey ??= this.shape.join(','));
  }

  /**
   * Shape and dtype as text, as error messages name a tensor.
   * @example tpu.zeros([2, 3]).describe() // '[2, 3] float32'
   */
  describe(): string {
    return `${formatShape(this.shape)} ${this.dtype}`;
  }

  private readable(what: string): DeviceBuffer {
    keeper.checkRead(what);
    if (this.disposed) throw new ReferenceError(`${what}: the tensor ${this.describe()} was disposed`);
    if (this._buf?.lostWithSession) throw new ReferenceError(`${what}: the tensor ${this.describe()} was freed by tpu.reset()`);
    freshen(this);
    keeper.materialize(this, what);
    return this._buf!;
  }

  /**
   * Sync point: `await x.data()` gives the values as a typed array (bfloat16 widened to float32).
   * Assigned, as PyTorch's `w.data = v`: v's values are written into x outside autograd (v must
   * have x's shape; v of another dtype gives x that dtype, floating if x requires grad).
   * @example await tpu.tensor([1, 2]).data() // [1, 2]
   */
  get data(): () => Promise<HostArray> {
    return Tensor.readData;
  }
  set data(value: Tensor) {
    assignData(this, value);
  }

  /** x.data(): the getter hands out this one function, so a call of it has `this` x. */
  private static async readData(this: Tensor): Promise<HostArray> {
    const buf = this.readable('data');
    return storageToHost(this.dtype, await chipSession(buf.chip).download(buf, 'data'));
  }

  /**
   * Sync point, blocking the thread until the device has the value.
   * @example tpu.tensor([1, 2]).dataSync() // [1, 2]
   */
  dataSync(): HostArray {
    return this._readSync('dataSync');
  }

  /** dataSync for the runtime's own reads: `reason` names the read where a profile reports its sync. */
  _readSync(reason: string): HostArray {
    const buf = this.readable(reason);
    return storageToHost(this.dtype, chipSession(buf.chip).downloadSync(buf, reason));
  }

  /**
   * Sync point: the one value of a one-element tensor: a number, or true/false for a bool
   * tensor (PyTorch's item() gives a Python bool there). Typed boolean on a BoolTensor (what
   * comparisons, logical ops, isnan, any, all, to('bool') return), else number. A bool tensor
   * the types cannot tell (an op that keeps its input's dtype: mask.at(0), mask.reshape(-1); a
   * dtype variable) is typed number and still gives true/false: arithmetic reads them as 1
   * and 0, as Python does (true + 1 is 2), but `=== 1` is false.
   * @example tpu.tensor([[7]]).item() // 7
   * @example tpu.tensor([1, 2]).gt(1).any().item() // true
   */
  item(this: BoolTensor): boolean;
  item(): number;
  item(): number | boolean {
    if (this.numel() !== 1) {
      throw new RangeError(`item: the tensor must have exactly one element; got shape ${formatShape(this.shape)} (${this.numel()} elements)`);
    }
    const v = this.dataSync()[0]!;
    return this.dtype === 'bool' ? v !== 0 : typeof v === 'bigint' ? exactNumber('item', v, 0) : v;
  }

  /**
   * Sync point: the values as nested JS arrays (booleans for a bool tensor, typed as item() is).
   * @example tpu.eye(2).array() // [[1, 0], [0, 1]]
   */
  array(this: BoolTensor): NestedArray<boolean>;
  array(): NestedArray<number>;
  array(): NestedArray {
    return nest(this.dataSync(), this.shape, this.dtype === 'bool', 'array');
  }

  /**
   * Sync point: the values as nested JS arrays, a number or boolean for a 0-d tensor
   * (torch.Tensor.tolist; the same as array()).
   * @example tpu.tensor([[1, 2], [3, 4]]).tolist() // [[1, 2], [3, 4]]
   */
  tolist(this: BoolTensor): NestedArray<boolean>;
  tolist(): NestedArray<number>;
  tolist(): NestedArray {
    return nest(this.dataSync(), this.shape, this.dtype === 'bool', 'tolist');
  }

  /**
   * Sync point: what JSON.stringify writes for a tensor, its values as tolist() gives them (a
   * tensor's own fields are device handles, which JSON cannot hold).
   * @example JSON.stringify({ loss: tpu.tensor(0.5) }) // '{"loss":0.5}'
   */
  toJSON(): NestedArray {
    return this.tolist();
  }

  /**
   * Frees the device memory now (idempotent).
   * @example const t = tpu.ones([1024]); t.dispose()
   */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const b = this._buf;
    if (!b) {
      if (this._pins) keeper.disposedRecipe(this);
      return;
    }
    // No unregister from the finalizer (it costs more than the op): freeing is idempotent.
    keeper.disposeBuffer(b);
  }

  /**
   * The values as text, as PyTorch prints a tensor (a sync point).
   * @example String(tpu.tensor([1, 2])).startsWith('tensor([1., 2.]') // true
   */
  toString(): string {
    if (this.disposed) return `tensor(<disposed>, shape=${formatShape(this.shape)}, dtype=${this.dtype})`;
    return formatTensorText(this.dataSync(), this.shape, this.dtype, this.device);
  }

  [Symbol.for('Jupyter.display')](): Record<string, string> {
    if (this.disposed) return { 'text/plain': this.toString() };
    const values = this.dataSync();
    return {
      'text/plain': formatTensorText(values, this.shape, this.dtype, this.device),
      'text/html': formatTensorHtml(values, this.shape, this.dtype, this.device),
    };
  }

  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return this.toString();
  }

  /**
   * `x + 1`, `x * y`, `x < 0`, `+x` would coerce the tensor to a string or NaN: they throw
   * the methods to use instead. String(x) and `${x}` keep giving the text.
   */
  [Symbol.toPrimitive](hint: 'number' | 'string' | 'default'): string {
    if (hint === 'string') return this.toString();
    throw new TypeError(OPERATOR_HINT);
  }
}

/** What a tensor in a JavaScript operator says (cells rewrite the operators they can type). */
export const OPERATOR_HINT = 'JavaScript has no operator overloading: use the tensor methods, e.g. x.add(1) for x + 1, '
  + 'x.sub(y), x.mul(y), x.div(y), x.pow(2), x.neg(), x.lt(y) / x.le / x.gt / x.ge / x.eq / x.ne for comparisons, '
  + 'x.at(0) for x[0], or x.item() for a number';

/** An int64 value as a JS number: exact up to 2^53, an error beyond (data() has the exact BigInts). */
function exactNumber(who: string, v: bigint, i: number): number {
  const n = Number(v);
  if (Number.isSafeInteger(n)) return n;
  throw new RangeError(`${who}: int64 value ${v} (element ${i}) is beyond 2^53, where JS numbers are not exact; read it with data() (a BigInt64Array of exact values)`);
}

function nest(values: HostArray, shape: Shape, bool: boolean, who: string): NestedArray {
  const at = (i: number): number | boolean => {
    const v = values[i]!;
    return bool ? v !== 0 : typeof v === 'bigint' ? exactNumber(who, v, i) : v;
  };
  if (shape.length === 0) return at(0);
  const build = (dim: number, offset: number): NestedArray[] => {
    const n = shape[dim]!;
    const stride = numel(shape.slice(dim + 1));
    const out: NestedArray[] = new Array(n);
    for (let i = 0; i < n; i++) out[i] = dim === shape.length - 1 ? at(offset + i) : build(dim + 1, offset + i * stride);
    return out;
  };
  return build(0, 0);
}
