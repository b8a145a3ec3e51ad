import type { Magic } from './magic.js';
import { runtimeWithoutArgs } from './tpu-runtime.js';

export const device: Magic = {
  name: 'device',
  summary: 'The TPU session: backend, chip generation, HBM capacity, threads, mode.',
  help: [
    '%device',
    '',
    'Prints what tensors run on (the same figures as tpu.device()): the backend,',
    'the TPU chip generation and its HBM capacity (TPU_KERNEL_CHIP,',
    'TPU_KERNEL_HBM_BYTES or tpu.setDevice), the backend\'s intra-op threads',
    '(TPU_KERNEL_THREADS), the eager mode and the float32 matmul precision.',
  ].join('\n'),
  run(context) {
    const runtime = runtimeWithoutArgs('device', context);
    const { write } = context;
    const d = runtime.device();
    write('stdout', [
      `backend:          ${d.backend}`,
      `chip:             TPU ${d.chip}`,
      `HBM capacity:     ${d.capacity} (${d.capacityBytes} bytes)`,
      `threads:          ${d.threads}`,
      `mode:             ${d.mode}`,
      `matmul precision: ${d.matmulPrecision}`,
      '',
    ].join('\n'));
  },
};
