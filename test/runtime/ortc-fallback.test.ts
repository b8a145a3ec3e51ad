// Without our ortc addon (TPU_KERNEL_ORTC=0 here; also a missing build or library) the CPU
// executor runs ONNX Runtime through onnxruntime-node's binding, says why, and computes the same.
import { describe, expect, it } from 'vitest';
import { sessionOpChecks } from '../support/ort-binding-checks.js';

process.env.TPU_KERNEL_ORTC = '0';
// After the variable is set: the device thread reads it when it starts.
const { tpu } = await import('tpu-kernel/runtime');

describe('onnxruntime-node fallback', () => {
  it('names the binding and the reason', async () => {
    expect((await tpu.deviceStats()).binding).toBe('onnxruntime-node (TPU_KERNEL_ORTC=0)');
  });
  sessionOpChecks(tpu);
});
