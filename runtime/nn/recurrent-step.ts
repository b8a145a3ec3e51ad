// One time step of the recurrent layers and cells, as PyTorch computes it (ATen's RNN.cpp):
// gates from the input's projection plus the state's, PyTorch's gate order (LSTM i, f, g, o;
// GRU r, z, n), GRU's reset gate applied to the state's projection W_hn h + b_hn.
import type { Tensor } from '../tensor.js';
import { linear } from '../ops/linalg.js';

export type CellKind = 'LSTM' | 'GRU' | 'RNN_TANH' | 'RNN_RELU';

/** Rows of weight_ih / weight_hh per hidden unit: one block per gate. */
export const GATE_COUNT: Readonly<Record<CellKind, number>> = { LSTM: 4, GRU: 3, RNN_TANH: 1, RNN_RELU: 1 };

/** RNN's and RNNCell's step for their `nonlinearity` argument (PyTorch's 'tanh' default). */
export function elmanKind(who: string, nonlinearity: unknown = 'tanh'): CellKind {
  if (nonlinearity === 'tanh') return 'RNN_TANH';
  if (nonlinearity === 'relu') return 'RNN_RELU';
  throw new RangeError(`${who}: nonlinearity must be 'tanh' or 'relu'; got ${JSON.stringify(nonlinearity)}`);
}

export interface StepWeights {
  readonly weightHh: Tensor;
  readonly biasHh: Tensor | null;
  /** LSTM's projection of h (projSize > 0). */
  readonly weightHr: Tensor | null;
}

/**
 * The next state from this step's input projection `xp` = x W_ihᵀ + b_ih and the state
 * ([h], or [h, c] for LSTM).
 */
export function recurrentStep(kind: CellKind, xp: Tensor, state: readonly Tensor[], w: StepWeights): Tensor[] {
  const h = state[0]!;
  const hp = linear(h, w.weightHh, w.biasHh);
  switch (kind) {
    case 'LSTM': {
      const [i, f, g, o] = xp.add(hp).chunk(4, -1) as [Tensor, Tensor, Tensor, Tensor];
      const c = f.sigmoid().mul(state[1]!).add(i.sigmoid().mul(g.tanh()));
      const next = o.sigmoid().mul(c.tanh());
      return [w.weightHr ? linear(next, w.weightHr) : next, c];
    }
    case 'GRU': {
      const [xr, xz, xn] = xp.chunk(3, -1) as [Tensor, Tensor, Tensor];
      const [hr, hz, hn] = hp.chunk(3, -1) as [Tensor, Tensor, Tensor];
      const r = xr.add(hr).sigmoid();
      const z = xz.add(hz).sigmoid();
      const n = xn.add(r.mul(hn)).tanh();
      return [h.sub(n).mul(z).add(n)]; // (1 - z) n + z h
    }
    case 'RNN_TANH':
      return [xp.add(hp).tanh()];
    case 'RNN_RELU':
      return [xp.add(hp).relu()];
  }
}
