// L-BFGS (torch.optim.LBFGS): a quasi-Newton method that steps along a direction built from the
// last historySize changes of the parameters and gradients, for full-batch problems. step(closure)
// re-evaluates the loss up to maxIter times; with lineSearchFn 'strong_wolfe' each step's size is
// found by a line search (strong-wolfe.ts). Its stopping tests and the line search branch on the
// loss and on the gradient's size, so each iteration reads a few numbers from the device: it runs
// in every eager mode, not inside tpu.compile.
import { readOptions } from '../options.js';
import { numberValue } from '../jit/live-number.js';
import { tracing } from '../jit/trace-record.js';
import { Tensor } from '../tensor.js';
import { DTensor } from '../distributed/dtensor.js';
import { concat } from '../ops/concat.js';
import { zeros } from '../creation.js';
import { enableGrad, noGrad } from '../autograd/grad-mode.js';
import { checkGroupValues, Optimizer, type Hyperparameters, type OptimizerStateDict, type ParamGroup, type ParamGroupOptions, type ParamsOrGroups } from './optimizer.js';
import { strongWolfe } from './strong-wolfe.js';

export interface LBFGSOptions {
  /** The step size (1 by default). */
  lr?: number;
  /** Iterations per step() (20). */
  maxIter?: number;
  /** Loss evaluations per step() (maxIter · 5 / 4, rounded down). */
  maxEval?: number;
  /** Stop when every gradient element is at most this in size (1e-7). */
  toleranceGrad?: number;
  /** Stop when the loss or the parameters change less than this (1e-9). */
  toleranceChange?: number;
  /** Past updates kept to shape the direction (100). */
  historySize?: number;
  /** null (a fixed step lr), or 'strong_wolfe'. */
  lineSearchFn?: 'strong_wolfe' | null;
}

/** LBFGS's hyperparameters (the only group's). It has no weightDecay or maximize, as PyTorch's. */
export type LBFGSHyperparameters = Required<LBFGSOptions> & Hyperparameters;

const KEYS = ['lr', 'maxIter', 'maxEval', 'toleranceGrad', 'toleranceChange', 'historySize', 'lineSearchFn'] as const;

/** A closure: zeroes the gradients, computes the loss, calls backward() and returns the loss. */
export type LossClosure = () => Tensor | number;

function checkLBFGS(who: string, where: string, h: LBFGSHyperparameters): LBFGSHyperparameters {
  checkGroupValues(who, where, h, ['lr', 'toleranceGrad', 'toleranceChange'], []);
  for (const k of ['maxIter', 'maxEval', 'historySize'] as const) {
    const v = numberValue(h[k]);
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw new RangeError(`${who}: ${where}${k} must be an integer >= 1; got ${JSON.stringify(v)}`);
  }
  if (h.lineSearchFn !== null && h.lineSearchFn !== 'strong_wolfe') throw new TypeError(`${who}: ${where}lineSearchFn must be null or 'strong_wolfe', as PyTorch's; got ${JSON.stringify(h.lineSearchFn)}`);
  return h;
}

/** What PyTorch keeps in the state of the first parameter between step() calls. */
interface History {
  funcEvals: number;
  nIter: number;
  d?: Tensor;
  t?: number;
  oldDirs: Tensor[];
  oldStps: Tensor[];
  ro: Tensor[];
  hDiag: Tensor | number;
  prevFlatGrad?: Tensor;
  prevLoss?: number;
}

/** A loss as a number (a sync point for a tensor). */
function lossValue(v: unknown): number {
  if (typeof v === 'number') return v;
  if (v instanceof Tensor && v.numel() === 1) return Number(v.item());
  throw new TypeError(`LBFGS.step: the closure must return the loss, a one-element tensor or a number; got ${v instanceof Tensor ? v.describe() : typeof v}`);
}

/**
 * L-BFGS (torch.optim.LBFGS): `opt.step(closure)`, the closure zeroing the gradients, computing
 * the loss, calling backward() and returning the loss; one param group only, as PyTorch's.
 * @example const w = tpu.tensor([3, -2], { requiresGrad: true }); const opt = new tpu.optim.LBFGS([w], { lineSearchFn: 'strong_wolfe' }); opt.step(() => { opt.zeroGrad(); const loss = w.sub(tpu.tensor([1, 2])).square().sum(); loss.backward(); return loss; }); w // [1, 2]
 */
export class LBFGS extends Optimizer<LBFGSHyperparameters> {
  #history: History = { funcEvals: 0, nIter: 0, oldDirs: [], oldStps: [], ro: [], hDiag: 1 };

  constructor(params: ParamsOrGroups<LBFGSHyperparameters>, options: LBFGSOptions = {}) {
    const o = readOptions<LBFGSOptions>('LBFGS', options, [...KEYS]);
    const maxIter = o.maxIter ?? 20;
    // no weightDecay or maximize: PyTorch's LBFGS has neither (they are not options here)
    super(params, 'LBFGS', checkLBFGS('LBFGS', '', {
      lr: o.lr ?? 1, maxIter, maxEval: o.maxEval ?? Math.floor((maxIter * 5) / 4), toleranceGrad: o.toleranceGrad ?? 1e-7,
      toleranceChange: o.toleranceChange ?? 1e-9, historySize: o.historySize ?? 100, lineSearchFn: o.lineSearchFn ?? null,
    } as LBFGSHyperparameters));
    if (this.paramGroups.length !== 1) throw new TypeError("LBFGS: one param group only (PyTorch: \"LBFGS doesn't support per-parameter options (parameter groups)\")");
    if (this.paramGroups[0]!.params.some((p) => p instanceof DTensor)) throw new TypeError('LBFGS: DTensor parameters are not supported (its flat gradient joins whole tensors)');
  }

  override addParamGroup(group: ParamGroupOptions<LBFGSHyperparameters>): void {
    if (this.paramGroups.length >= 1) throw new TypeError("LBFGS.addParamGroup: one param group only (PyTorch: \"LBFGS doesn't support per-parameter options (parameter groups)\")");
    super.addParamGroup(group);
  }

  protected readonly stateKeys: readonly string[] = [];

  protected checkGroup(values: LBFGSHyperparameters, where: string): void {
    checkLBFGS(this.name, where, values);
  }

  protected update(): Tensor {
    throw new TypeError('LBFGS: its step takes a closure: opt.step(closure)');
  }

  /** Its history is not a per-parameter tensor state: saving it is not supported here. */
  override stateDict(): OptimizerStateDict {
    throw new TypeError('LBFGS.stateDict: not supported (its history of directions is not saved here); make a new LBFGS to start afresh');
  }

  override loadStateDict(): void {
    throw new TypeError('LBFGS.loadStateDict: not supported (its history of directions is not saved here)');
  }

  get #params(): Tensor[] {
    return this.paramGroups[0]!.params as Tensor[];
  }

  /** Every parameter's gradient as one vector (zeros for one without). */
  #flatGrad(): Tensor {
    return noGrad(() => concat(this.#params.map((p) => (p.grad ? p.grad.reshape([-1]) : zeros([p.numel()], { dtype: p.dtype, chip: p.chip }))), 0));
  }

  /** Parameters += step · update, in place. */
  #addGrad(step: number, update: Tensor): void {
    noGrad(() => {
      let offset = 0;
      for (const p of this.#params) {
        p.add_(update.narrow(0, offset, p.numel()).reshape([...p.shape]), { alpha: step });
        offset += p.numel();
      }
    });
  }

  #evaluate(closure: LossClosure): Tensor | number {
    return enableGrad(closure);
  }

  /**
   * Up to maxIter L-BFGS iterations, each evaluating the closure (its line search more often);
   * returns the closure's first loss, as PyTorch's.
   * @example opt.step(() => { opt.zeroGrad(); const loss = lossFn(w); loss.backward(); return loss; })
   */
  override step(closure?: LossClosure): Tensor | number {
    if (typeof closure !== 'function') throw new TypeError('LBFGS.step: takes a closure that zeroes the gradients, computes the loss, calls backward() and returns the loss, as PyTorch\'s');
    if (tracing()) throw new Error('LBFGS.step: not inside tpu.compile: each iteration reads the loss and the gradient\'s size on the host (its stopping tests and line search branch on them); call it outside the compiled function');
    const group = this.paramGroups[0]! as ParamGroup<LBFGSHyperparameters>;
    const num = (k: 'lr' | 'toleranceGrad' | 'toleranceChange' | 'maxIter' | 'maxEval' | 'historySize') => numberValue(group[k]) as number;
    checkLBFGS(this.name, 'paramGroups[0].', group);
    const [lr, maxIter, maxEval, tolGrad, tolChange, historySize] = [num('lr'), num('maxIter'), num('maxEval'), num('toleranceGrad'), num('toleranceChange'), num('historySize')];
    const h = this.#history;
    const origLoss = this.#evaluate(closure);
    let loss = lossValue(origLoss);
    let currentEvals = 1;
    h.funcEvals++;
    this.stepCount++;
    let flatGrad = this.#flatGrad();
    if (flatGrad.abs().max().item() <= tolGrad) return origLoss;
    let { d, t } = h;
    let nIter = 0;
    noGrad(() => {
      while (nIter < maxIter) {
        nIter++;
        h.nIter++;
        if (h.nIter === 1) {
          d = flatGrad.neg();
          Object.assign(h, { oldDirs: [], oldStps: [], ro: [], hDiag: 1 });
        } else {
          // the direction: the two-loop recursion over the kept (y, s) pairs
          const y = flatGrad.sub(h.prevFlatGrad!);
          const s = d!.mul(t!);
          const ys = y.dot(s);
          if (ys.item() > 1e-10) {
            if (h.oldDirs.length === historySize) [h.oldDirs, h.oldStps, h.ro].forEach((list) => list.shift());
            h.oldDirs.push(y);
            h.oldStps.push(s);
            h.ro.push(ys.reciprocal());
            h.hDiag = ys.div(y.dot(y));
          }
          const al: Tensor[] = [];
          let q = flatGrad.neg();
          for (let i = h.oldDirs.length - 1; i >= 0; i--) {
            al[i] = h.oldStps[i]!.dot(q).mul(h.ro[i]!);
            q = q.sub(h.oldDirs[i]!.mul(al[i]!));
          }
          let r = q.mul(h.hDiag);
          for (let i = 0; i < h.oldDirs.length; i++) {
            const be = h.oldDirs[i]!.dot(r).mul(h.ro[i]!);
            r = r.add(h.oldStps[i]!.mul(al[i]!.sub(be)));
          }
          d = r;
        }
        h.prevFlatGrad = flatGrad.clone();
        h.prevLoss = loss;
        if (h.nIter === 1) {
          // PyTorch: min(1, 1 / |g|.sum()) · lr, in float32 where the reciprocal is the smaller
          const inverse = Math.fround(1 / Number(flatGrad.abs().sum().item()));
          t = inverse < 1 ? Math.fround(inverse * lr) : lr;
        } else {
          t = lr;
        }
        const gtd = Number(flatGrad.dot(d!).item());
        if (gtd > -tolChange) break;
        let lsEvals = 0;
        if (group.lineSearchFn === 'strong_wolfe') {
          const start = this.#params.map((p) => p.clone());
          const evaluate = (step: number, dir: Tensor): [number, Tensor] => {
            this.#addGrad(step, dir);
            const value = lossValue(this.#evaluate(closure));
            const g = this.#flatGrad();
            this.#params.forEach((p, i) => p.copy_(start[i]!));
            return [value, g];
          };
          const found = strongWolfe(evaluate, t, d!, loss, flatGrad, gtd, maxEval - currentEvals, tolChange);
          ({ loss, grad: flatGrad, t, evals: lsEvals } = found);
          this.#addGrad(t, d!);
        } else {
          this.#addGrad(t, d!);
          if (nIter !== maxIter) {
            loss = lossValue(this.#evaluate(closure));
            flatGrad = this.#flatGrad();
            lsEvals = 1;
          }
        }
        currentEvals += lsEvals;
        h.funcEvals += lsEvals;
        if (nIter === maxIter || currentEvals >= maxEval) break;
        if (flatGrad.abs().max().item() <= tolGrad) break;
        if (d!.mul(t).abs().max().item() <= tolChange) break;
        if (Math.abs(loss - h.prevLoss) < tolChange) break;
      }
    });
    Object.assign(h, { d, t });
    return origLoss;
  }
}
