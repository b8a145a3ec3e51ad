// nn.BatchNorm1d / BatchNorm2d over the batchNorm op. The buffers keep PyTorch's names
// (running_mean, running_var, num_batches_tracked) as properties, so stateDict() keys and
// safetensors files match a PyTorch model's; camelCase getters read the same tensors.
import { readOptions } from '../options.js';
import type { DType } from '../dtype.js';
import { formatShape } from '../shape.js';
import type { Tensor } from '../tensor.js';
import { full } from '../creation.js';
import { noGrad } from '../autograd/grad-mode.js';
import { batchNormBy } from '../ops/nn/batch-norm.js';
import { Module } from './module.js';
import { constantParameter } from './init.js';
import { positiveInt } from './checks.js';
import { specializedOptions } from '../jit/live-number.js';

export interface BatchNormModuleOptions {
  eps?: number;
  /** The running statistics' step toward the batch's (0.1); null: their cumulative average over the batches seen. */
  momentum?: number | null;
  affine?: boolean;
  trackRunningStats?: boolean;
  dtype?: DType;
}

abstract class BatchNorm extends Module {
  readonly eps: number;
  momentum: number | null;
  readonly affine: boolean;
  readonly trackRunningStats: boolean;
  weight: Tensor | null;
  bias: Tensor | null;
  running_mean: Tensor | null;
  running_var: Tensor | null;
  num_batches_tracked: Tensor | null;

  readonly numFeatures: number;

  constructor(private readonly layer: string, numFeatures: number, options: BatchNormModuleOptions) {
    super();
    readOptions<BatchNormModuleOptions>(`nn.${layer}`, options, ['eps', 'momentum', 'affine', 'trackRunningStats', 'dtype']);
    options = specializedOptions(options);
    numFeatures = this.numFeatures = positiveInt(layer, 'numFeatures', numFeatures);
    this.eps = options.eps ?? 1e-5;
    const momentum = options.momentum === undefined ? 0.1 : options.momentum;
    if (momentum !== null && (typeof momentum !== 'number' || !Number.isFinite(momentum))) {
      throw new TypeError(`${layer}: momentum must be a finite number or null; got ${JSON.stringify(momentum)}`);
    }
    this.momentum = momentum;
    this.affine = options.affine ?? true;
    this.trackRunningStats = options.trackRunningStats ?? true;
    const dtype = options.dtype ?? 'float32';
    this.weight = this.affine ? constantParameter([numFeatures], 1, dtype) : null;
    this.bias = this.affine ? constantParameter([numFeatures], 0, dtype) : null;
    const track = this.trackRunningStats;
    this.running_mean = track ? full([numFeatures], 0, { dtype }) : null;
    this.running_var = track ? full([numFeatures], 1, { dtype }) : null;
    this.num_batches_tracked = track ? full([], 0, { dtype: 'int64' }) : null;
  }

  get runningMean(): Tensor | null {
    return this.running_mean;
  }

  get runningVar(): Tensor | null {
    return this.running_var;
  }

  get numBatchesTracked(): Tensor | null {
    return this.num_batches_tracked;
  }

  /** Input rank this layer takes (BatchNorm1d: 2 or 3, BatchNorm2d: 4). */
  protected abstract readonly ranks: readonly number[];
  protected abstract readonly layout: string;

  forward(x: Tensor): Tensor {
    if (!this.ranks.includes(x?.ndim)) throw new RangeError(`${this.layer}: input must be ${this.layout}; got ${x?.shape ? formatShape(x.shape) : typeof x}`);
    if (x.shape[1] !== this.numFeatures) {
      throw new RangeError(`${this.layer}: input has ${x.shape[1]} channels (dim 1 of ${formatShape(x.shape)}) but numFeatures is ${this.numFeatures}`);
    }
    let factor: number | Tensor = this.momentum ?? 0;
    const counter = this.num_batches_tracked;
    if (this.training && counter !== null) {
      noGrad(() => counter.add_(1));
      // PyTorch's cumulative average: 1 / batches seen, read on the device (no sync).
      if (this.momentum === null) factor = noGrad(() => counter.to('float32').reciprocal());
    }
    // Without running statistics, eval normalizes by the batch's too (PyTorch's rule).
    const batchStats = this.training || (this.running_mean === null && this.running_var === null);
    return batchNormBy(this.layer, x, this.running_mean, this.running_var, { weight: this.weight, bias: this.bias, eps: this.eps, training: batchStats }, factor);
  }

  /** Running mean 0, variance 1, no batches counted (torch's reset_running_stats). */
  resetRunningStats(): void {
    noGrad(() => {
      this.running_mean?.fill_(0);
      this.running_var?.fill_(1);
      this.num_batches_tracked?.fill_(0);
    });
  }

  protected override extraRepr(): string {
    return `${this.numFeatures}, eps=${this.eps}, momentum=${this.momentum}, affine=${this.affine}, trackRunningStats=${this.trackRunningStats}`;
  }
}

/**
 * Batch normalization over [N, C] or [N, C, L] (torch.nn.BatchNorm1d).
 * @example new tpu.nn.BatchNorm1d(4).forward(tpu.randn([8, 4])).shape // [8, 4]
 */
export class BatchNorm1d extends BatchNorm {
  protected readonly ranks = [2, 3];
  protected readonly layout = '2-D [N, C] or 3-D [N, C, L]';

  constructor(numFeatures: number, options: BatchNormModuleOptions = {}) {
    super('BatchNorm1d', numFeatures, options);
  }
}

/**
 * Batch normalization over [N, C, H, W] (torch.nn.BatchNorm2d).
 * @example new tpu.nn.BatchNorm2d(3).forward(tpu.randn([2, 3, 8, 8])).shape // [2, 3, 8, 8]
 */
export class BatchNorm2d extends BatchNorm {
  protected readonly ranks = [4];
  protected readonly layout = '4-D [N, C, H, W]';

  constructor(numFeatures: number, options: BatchNormModuleOptions = {}) {
    super('BatchNorm2d', numFeatures, options);
  }
}
