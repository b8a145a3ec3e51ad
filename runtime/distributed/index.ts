// Many chips: meshes, collectives between chips, moving tensors between chips, sharded tensors (DTensor).
import './to-chip.js';
import './dtensor-methods.js';

export { DeviceMesh, initDeviceMesh, type MeshOptions } from './device-mesh.js';
export { chunkSizes } from './functional-collectives.js';
export type * from './functional-collectives.js';
export * as distributed from './distributed-api.js';
export { DTensor, distributeTensor } from './dtensor.js';
export { Partial, Replicate, Shard, type Placement, type PartialReduce } from './placement.js';
