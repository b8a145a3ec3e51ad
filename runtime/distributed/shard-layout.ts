// Where each chip's piece of a sharded tensor lies: for every mesh dimension in order, a
// Shard(d) splits what the earlier mesh dimensions left along d as torch.chunk, and the chip
// keeps the chunk of its coordinate (PyTorch's compute_local_shape_and_global_offset).
import type { DeviceMesh } from './device-mesh.js';
import { chunkSizes } from './functional-collectives.js';
import type { Placement } from './placement.js';

/** A chip's coordinate along each mesh dimension (chips are row-major). */
export function meshCoordinate(mesh: DeviceMesh, index: number): number[] {
  const coord = new Array<number>(mesh.ndim);
  let rest = index;
  for (let i = mesh.ndim - 1; i >= 0; i--) {
    coord[i] = rest % mesh.shape[i]!;
    rest = Math.floor(rest / mesh.shape[i]!);
  }
  return coord;
}

/** Chip `index`'s piece of a tensor of `shape`: its start and size along every dim. */
export function localBox(shape: readonly number[], mesh: DeviceMesh, placements: readonly Placement[], index: number): { start: number[]; size: number[] } {
  const coord = meshCoordinate(mesh, index);
  const start = shape.map(() => 0);
  const size = [...shape];
  placements.forEach((p, i) => {
    if (p.kind !== 'shard') return;
    const piece = chunkOf(size[p.dim]!, mesh.shape[i]!, coord[i]!);
    start[p.dim]! += piece.start;
    size[p.dim] = piece.length;
  });
  return { start, size };
}

/** Chunk `coord` of `n` of a length (torch.chunk): its start and length. */
export function chunkOf(length: number, n: number, coord: number): { start: number; length: number } {
  const sizes = chunkSizes(length, n);
  return { start: sizes.slice(0, coord).reduce((a, b) => a + b, 0), length: sizes[coord]! };
}
