import type { Magic } from './magic.js';
import { runtimeWithoutArgs } from './tpu-runtime.js';

export const program: Magic = {
  name: 'program',
  summary: 'The last compiled program: its ops and how the backend runs it.',
  help: [
    '%program',
    '',
    'Shows the program compiled last (tpu.profiler.lastProgram()): its ops, one',
    'line per value with dtype and shape, and how the embedded backend runs it now',
    '(its ONNX graph, or the generated C loop that replaced it), as the device',
    'thread says once its queued work ran. In strict and debug mode a program is one op; in fused mode it',
    'is a whole region. The value is the cell\'s result when %program ends the cell.',
  ].join('\n'),
  run(context) {
    const runtime = runtimeWithoutArgs('program', context);
    const { write } = context;
    const listing = runtime.profiler.lastProgram();
    if (!listing) write('stdout', 'no program compiled yet in this TPU session\n');
    return listing;
  },
};
