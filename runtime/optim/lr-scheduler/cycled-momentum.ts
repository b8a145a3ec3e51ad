// The momentum that OneCycleLR and CyclicLR cycle against the lr: SGD's (or RMSprop's)
// momentum, or Adam's beta1, as PyTorch's use_beta1 picks.
import type { Optimizer, ParamGroup } from '../optimizer.js';

/** Whether the optimizer's cycled momentum is beta1 (else momentum); an optimizer with neither is an error. */
export function cyclesBeta1(who: string, optimizer: Optimizer): boolean {
  if ('betas' in optimizer.defaults) return true;
  if (!('momentum' in optimizer.defaults)) throw new TypeError(`${who}: cycleMomentum needs an optimizer with momentum or betas (SGD, Adam, AdamW, RMSprop); give cycleMomentum: false`);
  return false;
}

/** Sets a group's momentum, or its beta1 keeping beta2. */
export function setCycledMomentum(group: ParamGroup, value: number, beta1: boolean): void {
  const g = group as ParamGroup & { momentum?: number; betas?: readonly [number, number] };
  if (beta1) g.betas = [value, g.betas![1]];
  else g.momentum = value;
}
