import { UsageError } from '../cells/cell-errors.js';
import type { TensorRuntime } from '../tensor-runtime.js';
import type { MagicContext } from './magic.js';

/** The runtime for a magic that takes no arguments; a usage error otherwise. */
export function runtimeWithoutArgs(name: string, { args, runtime }: MagicContext): TensorRuntime {
  if (args) throw new UsageError(`%${name}: takes no arguments, got '${args}'`);
  if (!runtime) throw new UsageError(`%${name}: the tensor runtime is not available`);
  return runtime;
}
