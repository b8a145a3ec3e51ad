// libtpu's PJRT client: without TPU chips it fails at once with one line; on a TPU host it
// runs a program (buffers to the device, execute, back to the host).
import { describe, expect, it } from 'vitest';
import { hasTpuChips, tpuCompilerInfo } from '../../runtime/device/pjrt/index.js';
import { openTpuClient, TpuUnavailableError } from '../../runtime/device/pjrt/index.js';

const status = await tpuCompilerInfo();
if (!status.available) console.warn(`SKIPPED test/pjrt/tpu-client.test.ts: ${status.reason}`);

const ADD_SCALED = `module @add_scaled {
  func.func public @main(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>, %s: tensor<f32>) -> tensor<2x3xf32> {
    %b = stablehlo.broadcast_in_dim %s, dims = [] : (tensor<f32>) -> tensor<2x3xf32>
    %sy = stablehlo.multiply %y, %b : tensor<2x3xf32>
    %r = stablehlo.add %x, %sy : tensor<2x3xf32>
    return %r : tensor<2x3xf32>
  }
}`;

describe.skipIf(!status.available || hasTpuChips())('openTpuClient without TPU chips', () => {
  it('rejects quickly with one line naming PJRT NOT_FOUND', async () => {
    const start = performance.now();
    const err = await openTpuClient().catch((e: unknown) => e);
    expect(performance.now() - start).toBeLessThan(2000);
    expect(err).toBeInstanceOf(TpuUnavailableError);
    const message = (err as Error).message;
    expect(message).not.toContain('\n');
    expect(message).toMatch(/^no TPU chips on this machine: libtpu's PJRT client says PJRT NOT_FOUND: /);
  });
});

describe.skipIf(!status.available || !hasTpuChips())('openTpuClient on a TPU host', () => {
  it('runs x + s * y on chip 0', async () => {
    const client = await openTpuClient();
    expect(client.devices.length).toBeGreaterThan(0);
    const exe = await client.compile(ADD_SCALED);
    const x = new Float32Array([1, 2, 3, 4, 5, 6]);
    const y = new Float32Array([10, 20, 30, 40, 50, 60]);
    const args = [
      await client.toDevice(0, x, 'float32', [2, 3]),
      await client.toDevice(0, y, 'float32', [2, 3]),
      await client.toDevice(0, new Float32Array([0.5]), 'float32', []),
    ];
    const [[out]] = await client.execute(exe, [args]);
    const bytes = await client.toHost(out);
    const got = Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, 6));
    expect(got).toEqual(Array.from(x, (v, i) => v + 0.5 * y[i]));
    for (const b of [...args, out]) client.free(b);
  });
});
