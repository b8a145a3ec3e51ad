// What a module's parameters() yields, in a file of its own so that the files Module uses
// (module-to.ts) can name it without importing Module.
import type { Tensor } from '../tensor.js';
import type { DTensor } from '../distributed/dtensor.js';

/** What parameters() yields: tensors, and DTensors of a tensor-parallel module. */
export type Parameter = Tensor | DTensor;
