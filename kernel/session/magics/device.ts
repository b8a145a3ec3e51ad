import type { Magic } from './magic.js';
import { runtimeWithoutArgs } from './tpu-runtime.js';

export const device: Magic = {
  name: 'device',
  summary: 'The TPU session: backend, chip generation, HBM capacity, threads, mode, TPU compiler.',
  help: [
    '%device',
    '',
    'Prints what tensors run on (the same figures as tpu.device()): the backend,',
    'the TPU chip generation and its HBM capacity (TPU_KERNEL_CHIP,',
    'TPU_KERNEL_HBM_BYTES or tpu.setDevice), the backend\'s intra-op threads',
    '(TPU_KERNEL_THREADS), the eager mode and the float32 matmul precision,',
    'and the TPU compiler beside the executor: XLA:TPU through libtpu (its',
    'path, version and PJRT C API version), or why none (TPU_KERNEL_TPU_COMPILE=off).',
  ].join('\n'),
  run(context) {
    const runtime = runtimeWithoutArgs('device', context);
    const { write } = context;
    const d = runtime.device();
    const c = d.tpuCompiler;
    const versions = [c.libtpuVersion && `libtpu ${c.libtpuVersion}`, c.pjrtApiVersion && `PJRT C API ${c.pjrtApiVersion}`].filter(Boolean);
    write('stdout', [
      `backend:          ${d.backend}`,
      `chip:             TPU ${d.chip}`,
      `HBM capacity:     ${d.capacity} (${d.capacityBytes} bytes)`,
      `threads:          ${d.threads}`,
      `mode:             ${d.mode}`,
      `matmul precision: ${d.matmulPrecision}`,
      `TPU compiler:     ${c.compiler}${versions.length ? ` (${versions.join(', ')})` : ''}: ${c.status}`,
      ...(c.libtpuPath ? [`libtpu:           ${c.libtpuPath}`] : []),
      '',
    ].join('\n'));
  },
};
