// nn.Dropout: in training, zeroes each element with probability p and scales the rest by
// 1/(1-p); the identity in eval(). The mask comes from the tpu.manualSeed generator.
import { rand } from '../creation.js';
import type { Tensor } from '../tensor.js';
import { Module } from './module.js';

function checkP(who: string, p: unknown): void {
  if (typeof p !== 'number' || !(p >= 0 && p < 1)) throw new RangeError(`${who}: p must be a number in [0, 1); got ${JSON.stringify(p)}`);
}

export function dropout(x: Tensor, p: number, training = true): Tensor {
  checkP('dropout', p);
  if (!training || p === 0) return x;
  const keep = rand([...x.shape]).gt(p).to(x.dtype);
  return x.mul(keep).div(1 - p);
}

export class Dropout extends Module {
  constructor(readonly p = 0.5) {
    super();
    checkP('Dropout', p);
  }

  forward(x: Tensor): Tensor {
    return dropout(x, this.p, this.training);
  }

  protected override extraRepr(): string {
    return `p=${this.p}`;
  }
}
