// Many chips: meshes, collectives between chips, moving tensors between chips.
import './to-chip.js';

export { DeviceMesh, initDeviceMesh, type MeshOptions } from './device-mesh.js';
export { chunkSizes } from './functional-collectives.js';
export type * from './functional-collectives.js';
export * as distributed from './functional-collectives.js';
