// An optimizer's state of a DTensor parameter (tensor parallel, fullyShard): each chip's piece is
// stepped with its own state tensors, so the state of the parameter is those pieces as a DTensor
// laid out as the parameter (PyTorch's sharded optimizer state), and loading one splits it back.
import type { Tensor } from '../tensor.js';
import { DTensor, distributeTensor } from '../distributed/dtensor.js';

/** The DTensor of each state tensor of `p` (`pieceState(k)` chip k's piece's state, by key) in `keys`' order. */
export function dtensorState(p: DTensor, pieceState: (piece: Tensor) => Record<string, Tensor>, keys: readonly string[]): Record<string, DTensor> {
  const pieces = p.localTensors().map(pieceState);
  return Object.fromEntries(keys.filter((k) => k in pieces[0]!).map((k) => [k, new DTensor(pieces.map((s) => s[k]!), p.mesh, p.placements, [...p.shape])]));
}

/** A saved state tensor of `p` (a DTensor of any layout, or the full tensor) as p's pieces, chip by chip. */
export function statePieces(p: DTensor, saved: Tensor | DTensor): Tensor[] {
  const laid = saved instanceof DTensor ? saved.redistribute(p.mesh, p.placements) : distributeTensor(saved.detach(), p.mesh, p.placements);
  return laid.localTensors();
}
