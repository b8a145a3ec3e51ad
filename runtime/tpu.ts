// The `tpu` namespace: what a notebook cell (or a Node script) writes.
import { performance } from 'node:perf_hooks';
import * as creation from './creation.js';
import { functional } from './tpu-functions.js';
import { acceptingDTensors, type AcceptingDTensors } from './distributed/dtensor-functions.js';
import { manualSeed } from './manual-seed.js';
import { scope } from './scope.js';
import { activeMode, currentMode, setMode, withMode } from './modes/mode.js';
import { syncDevice, syncDeviceBlocking } from './modes/sync.js';
import { forgetDebugCollectives } from './modes/eager.js';
import './modes/values.js';
import './views/inplace-ops.js';
import './views/data-assignment.js';
import './views/inplace-unary.js';
import './views/inplace-index-ops.js';
import './views/inplace-random.js';
import './views/layout-methods.js';
import { chipSessions, closeSession, currentSession } from './device/current.js';
import { programCache } from './program/program-cache.js';
import { interruptBuffer, interruptWake } from './device/signal.js';
import type { DeviceStats } from './device/protocol.js';
import { settings, type DeviceOptions } from './device/settings.js';
import type { ModeName } from './modes/mode-type.js';
import type { MemoryInfo } from './device/memory.js';
import { sessionMemory, type SessionMemoryInfo } from './device/chip-memory.js';
import { matmulPrecision, setMatmulPrecision, type MatmulPrecision } from './ops/matmul.js';
import { emit, profiling } from './profiler/events.js';
import { profiler } from './profiler/api.js';
import { setCallSites } from './call-site.js';
import { training } from './training.js';
import { distributed, distributeTensor, DTensor, initDeviceMesh, Partial, Replicate, Shard } from './distributed/index.js';
import { tpuCompilerSummary, type TpuCompilerSummary } from './device/tpu-loop/compiler-summary.js';
import { Tensor } from './tensor.js';
import type * as ops from './ops/index.js';
import type * as computed from './creation-computed.js';
import type * as triangleIndices from './triangle-indices.js';
import type * as gradMode from './autograd/grad-mode.js';
import type * as gradTransforms from './autograd/grad-transforms.js';
import type * as gradOfOutputs from './autograd/grad-of-outputs.js';
import type * as jit from './jit/compile.js';
import type * as specs from './jit/spec.js';
import type * as nnModules from './nn/index.js';
import type * as nnUtils from './nn/utils/index.js';
import type * as nnInit from './nn/init-functions.js';
import type * as optim from './optim/index.js';
import type * as data from './utils/data/index.js';
import type * as saveLoad from './serialize/save-load.js';
import type * as seeding from './manual-seed.js';
import type * as scopes from './scope.js';
import type * as modes from './modes/mode.js';
import type * as matmul from './ops/matmul.js';
import type * as callSites from './call-site.js';
import type * as signal from './device/signal.js';
import type * as meshes from './distributed/device-mesh.js';
import type * as collectives from './distributed/distributed-api.js';
import type * as dtensors from './distributed/dtensor.js';
import type * as placements from './distributed/placement.js';
import type * as profilerApi from './profiler/api.js';
import type { functional as functionalObject, nnFunctional as nnFunctionalObject } from './tpu-functions.js';

function mode(): ModeName;
function mode(m: ModeName): ModeName;
function mode(m?: ModeName): ModeName {
  if (m !== undefined) setMode(m);
  return activeMode();
}

export interface DeviceInfo {
  readonly backend: string;
  readonly chip: string;
  /** Emulated chips (TPU_KERNEL_CHIPS, tpu.setDevice({ chips })), each with this HBM capacity. */
  readonly chips: number;
  readonly capacityBytes: number;
  readonly capacity: string;
  readonly threads: number;
  /** Compiled programs kept before the least recently used is evicted. */
  readonly programCacheSize: number;
  readonly mode: ModeName;
  readonly matmulPrecision: MatmulPrecision;
  /** The TPU compiler beside the executor (`backend`): XLA:TPU through libtpu, or why none. */
  readonly tpuCompiler: TpuCompilerSummary;
}

// The type of `tpu` names every member through the module that declares it (Pick keeps the
// declaration, so Shift+Tab shows its doc comment); a spread object's inferred type would be
// inlined into the emitted declarations without any doc.
type OpForms = 'zerosLike' | 'onesLike' | 'fullLike' | 'emptyLike' | 'randLike' | 'randnLike' | 'randintLike' | 'where' | 'concat' | 'stack' | 'einsum'
  | 'split' | 'chunk' | 'tensorSplit' | 'roll' | 'flip' | 'fliplr' | 'flipud' | 'dot' | 'outer' | 'bmm' | 'clamp' | 'lerp' | 'std' | 'varMean' | 'stdMean' | 'logsumexp'
  | 'norm' | 'cumsum' | 'cumprod' | 'sort' | 'argsort' | 'topk' | 'tril' | 'triu' | 'gather' | 'indexSelect' | 'scatterAdd'
  | 'maskedFill' | 'maskedSelect' | 'nonzero' | 'countNonzero' | 'searchsorted' | 'bucketize' | 'bincount' | 'histc' | 'unique' | 'argwhere' | 'squeeze' | 'unsqueeze' | 'flatten' | 'unflatten' | 'movedim' | 'softmax' | 'logSoftmax'
  | 'mm' | 'mv' | 'addmm' | 'baddbmm' | 'addcmul' | 'addcdiv' | 'diagonal' | 'diag' | 'trace' | 'select' | 'fmax' | 'fmin' | 'hypot' | 'xlogy' | 'logaddexp'
  | 'copysign' | 'exp2' | 'logit' | 'signbit' | 'isposinf' | 'isneginf' | 'nanToNum' | 'nansum' | 'nanmean' | 'median' | 'nanmedian' | 'kthvalue' | 'quantile' | 'nanquantile' | 'polygamma'
  | 'cummax' | 'cummin' | 'logcumsumexp' | 'diff' | 'isclose' | 'allclose' | 'equal' | 'normal' | 'bernoulli' | 'multinomial' | 'hstack' | 'vstack' | 'meshgrid'
  | 'scatter' | 'take' | 'takeAlongDim' | 'indexAdd' | 'indexCopy' | 'indexFill' | 'indexPut' | 'repeatInterleave' | 'max' | 'min' | 'det' | 'slogdet' | 'cross' | 'kron' | 'tensordot' | 'cdist'
  | 'scatterReduce' | 'maskedScatter' | 'uniqueConsecutive' | 'diagEmbed' | 'rot90' | 'cov' | 'corrcoef';
type MethodForms = 'exp' | 'log' | 'log1p' | 'expm1' | 'sqrt' | 'rsqrt' | 'square' | 'abs' | 'sign' | 'neg' | 'sin' | 'cos'
  | 'tanh' | 'sigmoid' | 'erf' | 'floor' | 'ceil' | 'round' | 'trunc' | 'isnan' | 'isinf' | 'isfinite' | 'logicalAnd'
  | 'logicalOr' | 'logicalXor' | 'logicalNot' | 'sum' | 'mean' | 'prod' | 'amax' | 'amin' | 'argmax' | 'argmin' | 'any'
  | 'all' | 'transpose' | 't' | 'swapaxes' | 'swapdims' | 'moveaxis' | 'unbind' | 'tan' | 'asin' | 'acos' | 'atan' | 'sinh' | 'cosh'
  | 'log2' | 'log10' | 'frac' | 'absolute' | 'sgn' | 'bitwiseNot' | 'erfinv' | 'lgamma' | 'digamma';
/** tpu.exp(x) for x.exp(): the Tensor method with the tensor first (its doc comment kept). */
type FunctionalForms<M extends keyof Tensor> = {
  [K in keyof Pick<Tensor, M>]: Tensor[K] extends (...a: infer A) => infer R ? (x: Tensor, ...a: A) => R : never;
};
type F = typeof functionalObject;
type PlainFunctional = Pick<typeof computed, 'linspace' | 'logspace' | 'eye' | 'randint' | 'randperm'> & Pick<typeof triangleIndices, 'trilIndices' | 'triuIndices'> & Pick<typeof ops, OpForms> & FunctionalForms<MethodForms>
  & {
    /** Matrix product with broadcasting batch dims (torch.matmul). @example tpu.matmul(a, b) */
    matmul: F['matmul'];
    /** a + b with broadcasting; either may be a JS number (torch.add). @example tpu.add(x, 1) */
    add: F['add'];
    /** a - b with broadcasting; either may be a JS number (torch.sub). @example tpu.sub(1, x) */
    sub: F['sub'];
    /** a * b with broadcasting; either may be a JS number (torch.mul). @example tpu.mul(x, 2) */
    mul: F['mul'];
    /** a / b; `{ roundingMode: 'floor' | 'trunc' }` as torch.div; either may be a JS number. @example tpu.div(7, tpu.tensor([2, -3]), { roundingMode: 'floor' }) // [3, -3] */
    div: F['div'];
    /** a // b rounded toward -inf (torch.floor_divide): int // int stays an integer; either may be a JS number. @example tpu.floorDivide(tpu.tensor([7, -7]), 2) // [3, -4] */
    floorDivide: F['floorDivide'];
    /** a / b, the same as tpu.div without a roundingMode (torch.true_divide). @example tpu.trueDivide(tpu.tensor([7]), 2) // [3.5] */
    trueDivide: F['trueDivide'];
    /** Bitwise AND of integer or bool tensors; either may be a JS number (torch.bitwise_and). @example tpu.bitwiseAnd(12, tpu.tensor([6], { dtype: 'int32' })) // [4] */
    bitwiseAnd: F['bitwiseAnd'];
    /** Bitwise OR of integer or bool tensors; either may be a JS number (torch.bitwise_or). @example tpu.bitwiseOr(tpu.tensor([12, 10], { dtype: 'int32' }), 1) // [13, 11] */
    bitwiseOr: F['bitwiseOr'];
    /** Bitwise XOR of integer or bool tensors; either may be a JS number (torch.bitwise_xor). @example tpu.bitwiseXor(tpu.tensor([true, false]), tpu.tensor([true, true])) // [false, true] */
    bitwiseXor: F['bitwiseXor'];
    /** a << b of integers; either may be a JS number (torch.bitwise_left_shift). @example tpu.bitwiseLeftShift(1, tpu.tensor([0, 3], { dtype: 'int32' })) // [1, 8] */
    bitwiseLeftShift: F['bitwiseLeftShift'];
    /** a >> b of integers, arithmetic; either may be a JS number (torch.bitwise_right_shift). @example tpu.bitwiseRightShift(tpu.tensor([-8, 8], { dtype: 'int32' }), 2) // [-2, 2] */
    bitwiseRightShift: F['bitwiseRightShift'];
    /** Remainder with the sign of a (torch.fmod). @example tpu.fmod(x, 3) */
    fmod: F['fmod'];
    /** Remainder with the sign of b, as Python % (torch.remainder); either may be a JS number. @example tpu.remainder(7, tpu.tensor([2, -3])) // [1, -2] */
    remainder: F['remainder'];
    /** a ** b; either may be a JS number (torch.pow). @example tpu.pow(2, x) */
    pow: F['pow'];
    /** Elementwise maximum of two tensors (torch.maximum). @example tpu.maximum(x, 0) */
    maximum: F['maximum'];
    /** Elementwise minimum of two tensors (torch.minimum). @example tpu.minimum(x, y) */
    minimum: F['minimum'];
    /** The angle of (other, input), in (-π, π] (torch.atan2). @example tpu.atan2(tpu.tensor([1]), tpu.tensor([-1])) // [2.356194] */
    atan2: F['atan2'];
    /** clamp under NumPy's name (torch.clip). @example tpu.clip(tpu.tensor([-2, 0.5, 3]), 0, 1) // [0, 0.5, 1] */
    clip: typeof ops.clamp;
    /** torch.cat: the same as tpu.concat. @example tpu.cat([a, b], 0) */
    cat: typeof ops.concat;
    /** Variance (torch.var), unbiased by default. @example tpu.var(x, { dim: 0 }) */
    var: typeof ops.variance;
    /** The same elements in a new shape, one array as torch.reshape (x.reshape also takes integers). @example tpu.reshape(tpu.zeros([2, 3]), [3, -1]).shape // [3, 2] */
    reshape: F['reshape'];
    /** The dims reordered, one array as torch.permute (x.permute also takes integers). @example tpu.permute(tpu.zeros([2, 3]), [1, 0]).shape // [3, 2] */
    permute: F['permute'];
    /** torch.linalg: det, slogdet, inv, invEx, solve, solveEx, cholesky, choleskyEx, qr, eigh, svd, norms, cross, ... @example tpu.linalg.solve(a, b) */
    linalg: typeof ops.linalg;
    /** The inverse of each square matrix (torch.inverse; tpu.linalg.inv). @example tpu.inverse(tpu.tensor([[2, 0], [0, 4]])) // [[0.5, 0], [0, 0.25]] */
    inverse: typeof ops.inv;
  };
type PlainNnFunctional = Pick<typeof ops, 'gelu' | 'silu' | 'softmax' | 'logSoftmax' | 'layerNorm' | 'rmsNorm' | 'dropout' | 'embedding'
  | 'linear' | 'oneHot' | 'pad' | 'conv1d' | 'conv2d' | 'convTranspose1d' | 'convTranspose2d' | 'unfold' | 'fold' | 'maxPool2d' | 'avgPool2d' | 'interpolate' | 'scaledDotProductAttention'
  | 'leakyRelu' | 'elu' | 'selu' | 'celu' | 'hardtanh' | 'relu6' | 'hardsigmoid' | 'hardswish' | 'softplus' | 'logSigmoid' | 'mish'
  | 'softsign' | 'tanhshrink' | 'softmin' | 'hardshrink' | 'softshrink' | 'threshold' | 'prelu' | 'glu' | 'normalize' | 'cosineSimilarity' | 'pairwiseDistance'
  | 'batchNorm' | 'groupNorm' | 'adaptiveAvgPool2d' | 'maxPool1d' | 'avgPool1d'>
  & FunctionalForms<'relu' | 'sigmoid' | 'tanh'>
  & {
    /** Cross entropy of logits and class indices or probabilities (F.cross_entropy; tpu.nn.crossEntropy). @example tpu.nn.functional.crossEntropy(tpu.zeros([1, 4]), tpu.tensor(new Int32Array([2]))) // 1.386294 */
    crossEntropy: typeof nnModules.crossEntropy;
    /** Mean squared error (F.mse_loss; tpu.nn.mseLoss). @example tpu.nn.functional.mseLoss(tpu.tensor([1, 2]), tpu.tensor([1, 4])) // 2 */
    mseLoss: typeof nnModules.mseLoss;
    /** Binary cross entropy of probabilities (F.binary_cross_entropy; tpu.nn.binaryCrossEntropy). @example tpu.nn.functional.binaryCrossEntropy(tpu.tensor([0.5]), tpu.tensor([1])) // 0.6931 */
    binaryCrossEntropy: typeof nnModules.binaryCrossEntropy;
    /** Binary cross entropy of logits (F.binary_cross_entropy_with_logits; tpu.nn.binaryCrossEntropyWithLogits). @example tpu.nn.functional.binaryCrossEntropyWithLogits(tpu.tensor([0]), tpu.tensor([1])) // 0.693147 */
    binaryCrossEntropyWithLogits: typeof nnModules.binaryCrossEntropyWithLogits;
    /** Negative log likelihood of log-probabilities and class indices (F.nll_loss; tpu.nn.nllLoss). @example tpu.nn.functional.nllLoss(tpu.tensor([[-1, -2]]), tpu.tensor(new Int32Array([1]))) // 2 */
    nllLoss: typeof nnModules.nllLoss;
    /** Mean absolute error (F.l1_loss; tpu.nn.l1Loss). @example tpu.nn.functional.l1Loss(tpu.tensor([1, 2]), tpu.tensor([1, 4])) // 1 */
    l1Loss: typeof nnModules.l1Loss;
    /** Quadratic below beta, linear above (F.smooth_l1_loss; tpu.nn.smoothL1Loss). @example tpu.nn.functional.smoothL1Loss(tpu.tensor([0, 0]), tpu.tensor([0.5, 3])) // 1.3125 */
    smoothL1Loss: typeof nnModules.smoothL1Loss;
    /** Quadratic below delta, delta-scaled linear above (F.huber_loss; tpu.nn.huberLoss). @example tpu.nn.functional.huberLoss(tpu.tensor([0, 0]), tpu.tensor([0.5, 3]), { delta: 2 }) // 2.0625 */
    huberLoss: typeof nnModules.huberLoss;
    /** KL divergence of a target from log-probabilities (F.kl_div; tpu.nn.klDiv). @example tpu.nn.functional.klDiv(tpu.tensor([-1, -1]), tpu.tensor([0.5, 0.5]), { reduction: 'batchmean' }) // 0.153426 */
    klDiv: typeof nnModules.klDiv;
    /** 1 - cos for pairs labelled 1, max(0, cos - margin) for -1 (F.cosine_embedding_loss; tpu.nn.cosineEmbeddingLoss). @example tpu.nn.functional.cosineEmbeddingLoss(tpu.tensor([[1, 0]]), tpu.tensor([[0, 1]]), tpu.tensor([1])) // 1 */
    cosineEmbeddingLoss: typeof nnModules.cosineEmbeddingLoss;
  };
type TpuTraining = Pick<typeof gradMode, 'noGrad' | 'enableGrad' | 'isGradEnabled' | 'setGradEnabled'> & Pick<typeof gradTransforms, 'grad' | 'valueAndGrad'> & Pick<typeof jit, 'compile'>
  & Pick<typeof specs, 'spec'>
  & Pick<typeof saveLoad, 'save' | 'load'> & Pick<typeof scopes, 'keep' | 'scope'> & {
    /** Modules and losses (torch.nn), with torch.nn.functional's forms as tpu.nn.functional. @example const layer = new tpu.nn.Linear(4, 2) */
    nn: typeof nnModules & {
      /** torch.nn.functional's names in camelCase. @example tpu.nn.functional.gelu(x) */
      functional: NnFunctional;
      /** torch.nn.utils' gradient clipping: clipGradNorm_ and clipGradValue_. @example tpu.nn.utils.clipGradNorm_(model.parameters(), 1.0) */
      utils: typeof nnUtils;
      /** torch.nn.init: in-place initializers outside autograd (xavierUniform_, kaimingNormal_, normal_, zeros_, ...). @example tpu.nn.init.xavierUniform_(new tpu.nn.Linear(4, 2).weight) */
      init: typeof nnInit;
    };
    /** torch.autograd's functional form: tpu.autograd.grad(outputs, inputs, options) returns gradients without touching .grad. @example const u = tpu.tensor([1, 2], { requiresGrad: true }); tpu.autograd.grad(u.sum(), [u])[0] // [1, 1] */
    autograd: typeof gradOfOutputs.autograd;
    /** Optimizers (torch.optim): SGD, Adam, AdamW, RMSprop, Adagrad, with param groups; learning-rate schedulers in tpu.optim.lrScheduler. @example const opt = new tpu.optim.AdamW(model.parameters(), { lr: 1e-3 }) */
    optim: typeof optim;
    /** torch.utils: its data loading. */
    utils: {
      /** torch.utils.data: Dataset, TensorDataset, Subset, ConcatDataset, randomSplit, defaultCollate, DataLoader. @example new tpu.utils.data.DataLoader(new tpu.utils.data.TensorDataset(x, y), { batchSize: 2 }).length // 2 */
      data: typeof data;
    };
  };
type TpuSettings = Pick<typeof seeding, 'manualSeed'> & Pick<typeof modes, 'withMode'> & Pick<typeof matmul, 'setMatmulPrecision'>
  & Pick<typeof callSites, 'setCallSites'> & Pick<typeof signal, 'interruptBuffer' | 'interruptWake'> & Pick<typeof profilerApi, 'profiler'>;
type TpuMode = {
  /**
   * The execution mode: 'fused' (ops gathered into one program until a sync point) or
   * 'strict' (each op runs at once, like PyTorch eager). No argument: the current mode.
   * @example tpu.mode('strict')
   */
  mode: typeof mode;
};
type TpuDistributed = Pick<typeof meshes, 'initDeviceMesh'> & Pick<typeof dtensors, 'distributeTensor' | 'DTensor'> & Pick<typeof placements, 'Shard' | 'Replicate' | 'Partial'> & {
  /**
   * Collectives between chips (torch.distributed's functional collectives) over one tensor per chip of a mesh, torch.chunk's shard sizes,
   * and tensor parallelism (parallelizeModule with ColwiseParallel and RowwiseParallel).
   * @example tpu.distributed.chunkSizes(5, 4) // [2, 2, 1, 0]
   */
  distributed: typeof collectives;
};
/** The functional forms take DTensors too (distributed/dtensor-functions.ts). */
type TpuFunctional = AcceptingDTensors<PlainFunctional>;
type NnFunctional = AcceptingDTensors<PlainNnFunctional>;
type TpuCore = typeof creation & TpuFunctional & TpuTraining & TpuSettings & TpuMode & TpuDistributed;


const members = {
  ...creation,
  ...acceptingDTensors('tpu', functional),
  ...training,
  distributed,
  initDeviceMesh,
  distributeTensor,
  DTensor,
  Shard,
  Replicate,
  Partial,
  manualSeed,
  scope,
  mode,
  withMode,
  setMatmulPrecision,
  /** Profiles: tpu.profiler.record(), .last(), .lastProgram(), .exportTrace(path) (see runtime/profiler/api.ts). */
  profiler,
  /** Call sites for device errors: true records every strict op (several µs each), 'auto' (default) the ops that may fail on the device, false none. */
  setCallSites,

  /**
   * True for a tensor or a DTensor (torch.is_tensor).
   * @example tpu.isTensor(tpu.ones([2])) // true
   * @example tpu.isTensor([1, 2]) // false
   */
  isTensor(value: unknown): value is Tensor | DTensor {
    return value instanceof Tensor || value instanceof DTensor;
  },

  /**
   * Sync point: runs the pending fused region and waits for all queued device work.
   * @example await tpu.sync()
   */
  sync(): Promise<void> {
    return syncDevice();
  },

  /**
   * Like sync(), blocking the thread.
   * @example tpu.syncBlocking()
   */
  syncBlocking(): void {
    syncDeviceBlocking();
  },

  /**
   * Device memory: live and peak bytes, live tensors, capacity (torch.cuda.memory_allocated and friends).
   * @example tpu.memory().liveBytes
   */
  memory(): SessionMemoryInfo {
    return sessionMemory();
  },

  /**
   * The n largest live tensors' buffers: bytes, shape, dtype and the op that made them.
   * @example tpu.largestTensors(3).map((t) => t.shape)
   */
  largestTensors(n = 10) {
    const chips = chipSessions();
    if (chips.length === 1) return chips[0]!.memory.largest(n);
    // Over several chips: the largest of all, each naming its chip.
    return chips.flatMap((s) => s.memory.largest(n).map((b) => ({ ...b, chip: s.chip }))).sort((a, b) => b.bytes - a.bytes).slice(0, n);
  },

  /**
   * Chip generation, HBM capacity, chip count: tpu.setDevice({ chip: 'v4' }), { hbmBytes }, { chips: 4 }.
   * @example tpu.setDevice({ chip: 'v5e' }).chip // 'v5e'
   */
  setDevice(options: DeviceOptions): DeviceInfo {
    settings.set(options);
    programCache().trim();
    return tpu.device();
  },

  /**
   * The device: backend, chip, HBM capacity, threads, mode and matmul precision.
   * @example tpu.device().chip
   */
  device(): DeviceInfo {
    return {
      backend: 'onnxruntime-cpu',
      chip: settings.chip(),
      chips: settings.chips(),
      capacityBytes: settings.capacityBytes(),
      capacity: settings.capacityLabel(),
      threads: settings.threads(),
      programCacheSize: settings.programCacheSize(),
      mode: activeMode(),
      matmulPrecision: matmulPrecision(),
      tpuCompiler: tpuCompilerSummary(),
    };
  },

  /**
   * A compiled program by id (the `program` of profiler events): IR, label, hash.
   * @example tpu.program(tpu.stats().lastProgram!.id)
   */
  program(id: number) {
    return programCache().get(id);
  },

  /**
   * Counters for the profiler and %program.
   * @example tpu.stats().programsCompiled
   */
  stats() {
    const chips = chipSessions();
    const sum = (f: (s: (typeof chips)[number]) => number) => chips.reduce((n, s) => n + f(s), 0);
    const c = programCache();
    return {
      programsCompiled: c.misses,
      cacheHits: c.hits,
      cacheMisses: c.misses,
      programsCached: c.size(),
      programsEvicted: c.evictions,
      // Over several chips: the sums of their queues and transfers.
      queueDepth: sum((s) => s.queueDepth()),
      pendingOps: currentMode().region?.size() ?? 0,
      bytesToDevice: sum((s) => s.bytesToDevice),
      bytesToHost: sum((s) => s.bytesToHost),
      lastProgram: c.last,
    };
  },

  /**
   * The device thread's own figures (executables, buffers, bytes, generated loops, reuse of freed
   * buffers: `pool`) once the work queued so far ran.
   * @example await tpu.deviceStats()
   */
  deviceStats(): Promise<DeviceStats> {
    return currentSession().deviceStats();
  },

  /**
   * For an interrupt: drops the pending fused region and queued executions that have not
   * started, rejects pending waits. Materialized tensors are kept; tensors whose work was
   * dropped keep their recipe (fused) or become unreadable (strict).
    * @example
    * await tpu.sync();
    * tpu.cancelPending() // { droppedOps: 0, droppedLaunches: 0 }
   */
  cancelPending(): { droppedOps: number; droppedLaunches: number } {
    const droppedOps = currentMode().region?.drop() ?? 0;
    const droppedLaunches = chipSessions().reduce((n, s) => n + s.cancelPending(), 0);
    forgetDebugCollectives();
    if (profiling.on) emit({ kind: 'region', time: performance.now(), reason: 'cancelled', nodes: droppedOps, outputs: 0 });
    return { droppedOps, droppedLaunches };
  },

  /**
   * The shared buffer a kernel hands to its control thread once, so that thread can
   * interrupt a blocking wait on the main thread with interruptWaits(buffer).
   */
  interruptBuffer,
  /** The same as data ({ buffer, flag, notify }): a kernel's control thread wakes the waits without loading the runtime. */
  interruptWake,

  /**
   * A new TPU session: every device buffer is freed (%reset).
   * @example await tpu.reset()
   */
  async reset(): Promise<MemoryInfo> {
    currentMode().region?.drop();
    const before = tpu.memory();
    await closeSession();
    return before;
  },
};

type Own = Omit<typeof members, keyof TpuCore>;
export type Tpu = TpuCore & Own;
export const tpu: Tpu = members;
