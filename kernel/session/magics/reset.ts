import type { Magic } from './magic.js';
import { runtimeModule } from '../tensor-runtime.js';
import { runtimeWithoutArgs } from './tpu-runtime.js';

export const reset: Magic = {
  name: 'reset',
  summary: 'A new TPU session: frees every device buffer and compiled program.',
  help: [
    '%reset',
    '',
    'Ends the TPU session and starts a new one on next use (tpu.reset()): every',
    'tensor\'s device memory and every compiled program is freed, and the figures',
    'freed are printed. Tensors made before are unusable afterwards; JavaScript',
    'variables and the mode are kept.',
  ].join('\n'),
  async run(context) {
    const runtime = runtimeWithoutArgs('reset', context);
    const { formatBytes } = await runtimeModule();
    const { write } = context;
    const programs = runtime.stats().programsCompiled;
    const freed = await runtime.reset();
    write('stdout', `New TPU session. Freed ${formatBytes(freed.liveBytes)} in ${freed.liveTensors} tensor${freed.liveTensors === 1 ? '' : 's'} and ${programs} compiled program${programs === 1 ? '' : 's'}.\n`);
  },
};
