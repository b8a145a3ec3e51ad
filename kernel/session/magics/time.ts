import { formatDuration } from './format-duration.js';
import type { Magic } from './magic.js';

export const time: Magic = {
  name: 'time',
  summary: 'Time one run of code, including the device work it queued.',
  help: [
    '%time <code>     time the code on this line',
    '%time            (alone on a line) time the rest of the cell',
    '',
    'Runs the code once, waits for the device work it queued (tpu.sync()), prints',
    'the wall time on stdout and gives the value of the code as the result.',
  ].join('\n'),
  argsAreCode: true,
  takesCellBody: true,
  async run({ compileArgs, syncDevice, write }) {
    const code = compileArgs();
    const start = performance.now();
    const value = await code();
    await syncDevice();
    write('stdout', `Wall time: ${formatDuration(performance.now() - start)}\n`);
    return value;
  },
};
