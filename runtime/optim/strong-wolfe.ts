// The strong Wolfe line search of L-BFGS (torch.optim.LBFGS's line_search_fn='strong_wolfe', after
// Nocedal and Wright's algorithms 3.5 and 3.6, as PyTorch's _strong_wolfe): bracket a step t that
// lowers the loss enough (sufficient decrease, c1) where the slope has flattened (curvature, c2),
// then zoom into the bracket by cubic interpolation. The losses and slopes are host numbers, read
// once per evaluation; the gradients stay on the device.
import type { Tensor } from '../tensor.js';

/** Loss and flat gradient at x + t·d (the parameters put back after). */
export type DirectionalEvaluate = (t: number, d: Tensor) => [loss: number, grad: Tensor];

/** The minimizer of the cubic through (x1, f1, g1) and (x2, f2, g2), clamped to bounds. */
function cubicInterpolate(x1: number, f1: number, g1: number, x2: number, f2: number, g2: number, bounds?: [number, number]): number {
  const [lo, hi] = bounds ?? (x1 <= x2 ? [x1, x2] : [x2, x1]);
  const d1 = g1 + g2 - (3 * (f1 - f2)) / (x1 - x2);
  const d2Square = d1 * d1 - g1 * g2;
  if (!(d2Square >= 0)) return (lo + hi) / 2;
  const d2 = Math.sqrt(d2Square);
  const minPos = x1 <= x2 ? x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2)) : x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2));
  return Math.min(Math.max(minPos, lo), hi);
}

interface Point { t: number; f: number; g: Tensor; gtd: number }

/** The step found: its loss, flat gradient, step size and the evaluations it took. */
export function strongWolfe(evaluate: DirectionalEvaluate, t: number, d: Tensor, f: number, g: Tensor, gtd: number, maxLs: number, toleranceChange = 1e-9, c1 = 1e-4, c2 = 0.9): { loss: number; grad: Tensor; t: number; evals: number } {
  const dNorm = d.abs().max().item();
  let [fNew, gNew] = evaluate(t, d);
  let evals = 1;
  let gtdNew = gNew.dot(d).item();
  let prev: Point = { t: 0, f, g, gtd };
  let bracket: Point[] | null = null;
  let done = false;
  let lsIter = 0;
  while (lsIter < maxLs) {
    const here: Point = { t, f: fNew, g: gNew, gtd: gtdNew };
    if (fNew > f + c1 * t * gtd || (lsIter > 1 && fNew >= prev.f)) {
      bracket = [prev, here];
      break;
    }
    if (Math.abs(gtdNew) <= -c2 * gtd) {
      bracket = [here];
      done = true;
      break;
    }
    if (gtdNew >= 0) {
      bracket = [prev, here];
      break;
    }
    // extrapolate
    const next = cubicInterpolate(prev.t, prev.f, prev.gtd, t, fNew, gtdNew, [t + 0.01 * (t - prev.t), t * 10]);
    prev = here;
    t = next;
    [fNew, gNew] = evaluate(t, d);
    evals++;
    gtdNew = gNew.dot(d).item();
    lsIter++;
  }
  if (lsIter === maxLs) bracket = [{ t: 0, f, g, gtd }, { t, f: fNew, g: gNew, gtd: gtdNew }];
  const b = bracket!;
  // zoom: shrink the bracket until a point meets both conditions
  let insufficientProgress = false;
  let [low, high] = b[0]!.f <= b[b.length - 1]!.f ? [0, 1] : [1, 0];
  while (!done && lsIter < maxLs) {
    if (Math.abs(b[1]!.t - b[0]!.t) * dNorm < toleranceChange) break;
    t = cubicInterpolate(b[0]!.t, b[0]!.f, b[0]!.gtd, b[1]!.t, b[1]!.f, b[1]!.gtd);
    const [bMax, bMin] = [Math.max(b[0]!.t, b[1]!.t), Math.min(b[0]!.t, b[1]!.t)];
    const eps = 0.1 * (bMax - bMin);
    if (Math.min(bMax - t, t - bMin) < eps) {
      // too close to an end: move away from it, unless the last step made progress there
      if (insufficientProgress || t >= bMax || t <= bMin) {
        t = Math.abs(t - bMax) < Math.abs(t - bMin) ? bMax - eps : bMin + eps;
        insufficientProgress = false;
      } else {
        insufficientProgress = true;
      }
    } else {
      insufficientProgress = false;
    }
    [fNew, gNew] = evaluate(t, d);
    evals++;
    gtdNew = gNew.dot(d).item();
    lsIter++;
    const here: Point = { t, f: fNew, g: gNew, gtd: gtdNew };
    if (fNew > f + c1 * t * gtd || fNew >= b[low]!.f) {
      b[high] = here;
      [low, high] = b[0]!.f <= b[1]!.f ? [0, 1] : [1, 0];
    } else {
      if (Math.abs(gtdNew) <= -c2 * gtd) done = true;
      else if (gtdNew * (b[high]!.t - b[low]!.t) >= 0) b[high] = b[low]!;
      b[low] = here;
    }
  }
  const best = b[low]!;
  return { loss: best.f, grad: best.g, t: best.t, evals };
}
