import type { Magic } from './magic.js';
import { runtimeModule } from '../tensor-runtime.js';
import { runtimeWithoutArgs } from './tpu-runtime.js';

export const memory: Magic = {
  name: 'memory',
  summary: 'Device memory: live and peak bytes, live tensors, HBM capacity.',
  help: [
    '%memory',
    '',
    'Prints the TPU session\'s device memory (the same figures as tpu.memory()):',
    'bytes held by live tensors, the peak since the session started, the number',
    'of live tensors and the HBM capacity of the chip (tpu.setDevice to change);',
    'with several chips, their sums, then each chip\'s figures.',
  ].join('\n'),
  async run(context) {
    const runtime = runtimeWithoutArgs('memory', context);
    const { formatBytes } = await runtimeModule();
    const { write } = context;
    const m = runtime.memory();
    const used = m.capacityBytes ? ((100 * m.liveBytes) / m.capacityBytes).toFixed(2) : '0';
    write('stdout', [
      `live:     ${formatBytes(m.liveBytes)} in ${m.liveTensors} tensor${m.liveTensors === 1 ? '' : 's'} (${m.liveBytes} bytes, ${used}% of capacity)`,
      `peak:     ${formatBytes(m.peakBytes)} (${m.peakBytes} bytes)`,
      `capacity: ${runtime.device().capacity} (${m.capacityBytes} bytes)`,
      // Several chips: the lines above are the sums; each chip's own figures follow.
      ...(m.chips.length > 1 ? m.chips.map((c) => `chip ${c.chip}:   ${formatBytes(c.liveBytes)} in ${c.liveTensors} tensor${c.liveTensors === 1 ? '' : 's'}, peak ${formatBytes(c.peakBytes)}`) : []),
      '',
    ].join('\n'));
  },
};
