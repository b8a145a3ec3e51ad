// x.toChip(c): the value copied to chip c over the interconnect (PyTorch's x.to(device)), a
// collective permute between the two chips recorded in each one's program, so it works in
// every mode; its gradient goes back the same way.
import { Tensor } from '../tensor.js';
import { apply } from '../modes/dispatch.js';
import { installMethods } from '../install-methods.js';
import { checkChip } from '../creation-options.js';
import { filled } from '../ops/constant.js';
import { permutePrimitive, type PermuteAttrs } from '../ops/collectives.js';
import { holdingCuts } from '../modes/region.js';
import { linkCollective } from '../autograd/tape.js';
import { currentMode } from '../modes/mode.js';
import { syncDeviceBlocking } from '../modes/sync.js';

declare module '../tensor.js' {
  interface Tensor {
    /**
     * A copy on chip `chip` (itself when already there), as PyTorch's x.to('cuda:1'); gradients flow back.
     * @example x.toChip(tpu.device().chips - 1).device // on 4 chips: 'tpu:3'
     */
    toChip(chip: number): Tensor;
  }
}

export function toChip(x: Tensor, chip: number): Tensor {
  chip = checkChip('toChip', chip);
  if (chip === x.chip) return x;
  const groups = [[x.chip, chip]];
  const pairs: PermuteAttrs['pairs'] = [[0, 1]];
  const from: PermuteAttrs = { groups, rank: 0, pairs };
  const to: PermuteAttrs = { groups, rank: 1, pairs };
  const [sent, moved, slot] = holdingCuts(() => {
    // The receiving chip's operand only gives the result its shape: the permute replaces it.
    const empty = filled('toChip', x.shape, 0, x.dtype, chip);
    return [apply(permutePrimitive, [x], from), apply(permutePrimitive, [empty], to), empty] as const;
  });
  linkCollective([{ out: sent, op: permutePrimitive, operands: [x], attrs: from }, { out: moved, op: permutePrimitive, operands: [slot], attrs: to }]);
  if (currentMode().name === 'debug') syncDeviceBlocking();
  // What the source chip receives (nothing: zeros) is not wanted.
  sent.dispose();
  slot.dispose();
  return moved;
}

installMethods({
  toChip(this: Tensor, chip: number) {
    return toChip(this, chip);
  },
});
