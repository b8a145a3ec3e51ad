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

  it('gives results back dense and major to minor, whatever layout XLA:TPU chose on the chip (bf16, bool, [100, 60] f32)', async () => {
    // XLA:TPU lays f32[100,60] out {0,1} (dim 0 minor): a download must still come back row by row.
    const program = `module @layouts {
  func.func public @main(%x: tensor<100x60xf32>, %h: tensor<3xbf16>) -> (tensor<100x60xf32>, tensor<3xbf16>, tensor<3xi1>) {
    %one = stablehlo.constant dense<1.0> : tensor<100x60xf32>
    %y = stablehlo.add %x, %one : tensor<100x60xf32>
    %z = stablehlo.constant dense<0.0> : tensor<3xbf16>
    %p = stablehlo.compare GT, %h, %z : (tensor<3xbf16>, tensor<3xbf16>) -> tensor<3xi1>
    return %y, %h, %p : tensor<100x60xf32>, tensor<3xbf16>, tensor<3xi1>
  }
}`;
    const client = await openTpuClient();
    const exe = await client.compile(program);
    const x = Float32Array.from({ length: 6000 }, (_, i) => i);
    const h = new Uint16Array([0x3f80, 0xbf00, 0x0000]); // 1, -0.5, 0 in bf16
    const args = [await client.toDevice(0, x, 'float32', [100, 60]), await client.toDevice(0, h, 'bfloat16', [3])];
    const [[y, hOut, p]] = await client.execute(exe, [args]);
    const yBytes = await client.toHost(y!);
    expect(Array.from(new Float32Array(yBytes.buffer, yBytes.byteOffset, 6000))).toEqual(Array.from(x, (v) => v + 1));
    const hBytes = await client.toHost(hOut!);
    expect(Array.from(new Uint16Array(hBytes.buffer, hBytes.byteOffset, 3))).toEqual([0x3f80, 0xbf00, 0x0000]);
    expect(Array.from(await client.toHost(p!))).toEqual([1, 0, 0]);
    for (const b of [...args, y!, hOut!, p!]) client.free(b);
    client.release(exe);
    await expect(client.execute(exe, [args])).rejects.toThrow('the executable was released');
  });
});
