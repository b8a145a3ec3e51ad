import { UsageError } from '../cell-errors.js';
import type { Magic } from './magic.js';

export const program: Magic = {
  name: 'program',
  summary: 'The last compiled program: its ops and the ONNX graph the backend runs.',
  help: [
    '%program',
    '',
    'Shows the program compiled last (tpu.profiler.lastProgram()): its ops, one',
    'line per value with dtype and shape, and the ONNX graph the embedded backend',
    'runs for it. In strict and debug mode a program is one op; in fused mode it',
    'is a whole region. The value is the cell\'s result when %program ends the cell.',
  ].join('\n'),
  run({ args, runtime, write }) {
    if (args) throw new UsageError(`%program: takes no arguments, got '${args}'`);
    if (!runtime) throw new UsageError('%program: the tensor runtime is not available');
    const listing = runtime.profiler.lastProgram();
    if (!listing) write('stdout', 'no program compiled yet in this TPU session\n');
    return listing;
  },
};
