import { UsageError } from '../cells/cell-errors.js';
import type { Magic } from './magic.js';

const MODES = ['debug', 'strict', 'fused'];

export const mode: Magic = {
  name: 'mode',
  summary: 'Show or switch the eager mode: debug | strict | fused.',
  help: [
    '%mode [debug|strict|fused]',
    '',
    'How tensor ops run from here on (the same as tpu.mode(...)):',
    '  debug   each op compiled alone, run at once and checked for NaN/Inf;',
    '          errors point at the exact line',
    '  strict  each op compiled alone (cached) and queued on the device; the',
    '          cell goes on while the device works',
    '  fused   ops are recorded and compiled into one program per region,',
    '          run at a sync point (await t.data(), t.item(), tpu.sync(),',
    '          end of cell): the fastest',
    'Switching flushes pending fused work. Without an argument, prints the mode.',
    'The default comes from TPU_KERNEL_MODE (else strict).',
  ].join('\n'),
  run({ args, runtime, write }) {
    if (!runtime) throw new UsageError('%mode: the tensor runtime is not available');
    if (args && !MODES.includes(args)) throw new UsageError(`%mode: mode must be one of ${MODES.join(', ')}, got '${args}'`);
    if (args) runtime.mode(args as 'debug' | 'strict' | 'fused');
    write('stdout', `mode: ${runtime.mode()}\n`);
  },
};
