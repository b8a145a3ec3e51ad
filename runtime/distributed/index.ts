// Many chips: meshes, collectives between chips, moving tensors between chips.
import { allGather, allReduce, allToAll, broadcast, permute, reduceScatter } from './functional-collectives.js';
import './to-chip.js';

export { DeviceMesh, initDeviceMesh, type MeshOptions } from './device-mesh.js';
export { chunkSizes } from './functional-collectives.js';
export type * from './functional-collectives.js';

/** tpu.distributed: functional collectives over one tensor per chip of a mesh. */
export const distributed = { allReduce, allGather, reduceScatter, allToAll, broadcast, permute };
