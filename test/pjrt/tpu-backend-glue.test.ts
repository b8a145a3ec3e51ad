// The TPU backend's side of its PJRT client, checked without chips through a stand-in client
// that records what it is handed: dtypes and bytes of uploads (a bf16 scalar as its 16-bit
// pattern, bools one byte each), downloads checked for their size, executables released on
// the device when the program cache lets them go, buffers freed once their upload settled.
import { describe, expect, it } from 'vitest';
import { tpu, type Tensor } from 'tpu-kernel/runtime';
import { TpuBackend } from '../../runtime/device/pjrt/tpu-backend.js';
import type { BufferHandle, LoadedExecutableHandle } from '../../runtime/device/pjrt/native-addon.js';
import type { PjrtDType, TpuClient } from '../../runtime/device/pjrt/tpu-client.js';

type Upload = { data: ArrayBufferView; dtype: PjrtDType; dims: number[] };
const handle = <H>(name: string) => ({ name }) as unknown as H;

class StandInClient {
  readonly uploads: Upload[] = [];
  readonly freed: string[] = [];
  readonly released: string[] = [];
  compiled: string[] = [];
  /** What toHost gives back for the next download. */
  hostBytes = new Uint8Array();
  async compile(stablehlo: string): Promise<LoadedExecutableHandle> {
    this.compiled.push(stablehlo);
    return handle(`exe${this.compiled.length}`);
  }
  async toDevice(_device: number, data: ArrayBufferView, dtype: PjrtDType, dims: number[]): Promise<BufferHandle> {
    this.uploads.push({ data, dtype, dims });
    return handle(`buf${this.uploads.length}`);
  }
  async toHost(): Promise<Uint8Array> {
    return this.hostBytes;
  }
  free(b: BufferHandle): void {
    this.freed.push((b as unknown as { name: string }).name);
  }
  release(exe: LoadedExecutableHandle): void {
    this.released.push((exe as unknown as { name: string }).name);
  }
  /** The next execution fails with this, when set. */
  failure: Error | undefined;
  /** How many results an execution gives (a device check's code is one more). */
  results = 1;
  async execute(_exe: LoadedExecutableHandle, lists: BufferHandle[][]): Promise<BufferHandle[][]> {
    if (this.failure) throw this.failure;
    return [Array.from({ length: this.results }, (_, i) => handle(`${i ? `result${i}-` : ''}out-of-${lists[0]!.length}-args`))];
  }
}

function backendOver(client: StandInClient): TpuBackend {
  return Reflect.construct(TpuBackend, [client as unknown as TpuClient]) as TpuBackend;
}

const bytesOf = (v: ArrayBufferView) => Array.from(new Uint8Array(v.buffer, v.byteOffset, v.byteLength));

describe('the TPU backend over its PJRT client', () => {
  it('uploads a bf16 scalar as its bit pattern and a bool tensor one byte per value, with the program\'s dims', async () => {
    const lowered = tpu.compile((x: Tensor, m: Tensor, s: number) => x.add(s).where(m, 0)).lower(
      tpu.spec([2, 2], 'bfloat16'), tpu.spec([2, 2], 'bool'), 1.5);
    const client = new StandInClient();
    const backend = backendOver(client);
    const exe = await backend.compile(lowered.program);
    expect(client.compiled).toEqual([lowered.stablehlo]);
    // Uploads arrive flat (the Backend surface has no shape): they reach the chip at the first program.
    const x = backend.toDevice('bfloat16', new Uint16Array([0x3f80, 0x4000, 0x4040, 0x4080])); // 1, 2, 3, 4
    const m = backend.toDevice('bool', new Uint8Array([1, 0, 0, 1]));
    await backend.execute(exe, [x, m], [1.5]);
    expect(client.uploads.map((u) => [u.dtype, u.dims, bytesOf(u.data)])).toEqual([
      ['bfloat16', [2, 2], [0x80, 0x3f, 0x00, 0x40, 0x40, 0x40, 0x80, 0x40]], // little-endian 16-bit patterns
      ['bool', [2, 2], [1, 0, 0, 1]],
      ['bfloat16', [], [0xc0, 0x3f]], // 1.5 = 0x3fc0 in bf16 (add reads a scalar in bf16; mul would read it in f32)
    ]);
    // The scalar's buffer is freed once the execution is done; the inputs stay.
    expect(client.freed).toEqual(['buf3']);
    // Also when the execution fails.
    client.failure = new Error('RESOURCE_EXHAUSTED');
    await expect(backend.execute(exe, [x, m], [2])).rejects.toThrow('RESOURCE_EXHAUSTED');
    expect(client.freed).toEqual(['buf3', 'buf4']);
  });

  it('downloads bool and bf16 results byte for byte, and refuses a download of the wrong size', async () => {
    const lowered = tpu.compile((x: Tensor) => x.gt(0)).lower(tpu.spec([3], 'bfloat16'));
    const client = new StandInClient();
    const backend = backendOver(client);
    const exe = await backend.compile(lowered.program);
    const [out] = await backend.execute(exe, [backend.toDevice('bfloat16', new Uint16Array(3))], []);
    expect(out!.dtype).toBe('bool');
    client.hostBytes = new Uint8Array([1, 0, 1]);
    expect(Array.from(await backend.toHost(out!))).toEqual([1, 0, 1]);
    client.hostBytes = new Uint8Array([1, 0, 1, 0]);
    await expect(backend.toHost(out!)).rejects.toThrow('tpu backend: the chip returned 4 bytes for 3 bool values; expected 3');

    const [half] = await backend.execute(await backend.compile(tpu.compile((v: Tensor) => v.mul(0.5)).lower(tpu.spec([2], 'bfloat16')).program),
      [backend.toDevice('bfloat16', new Uint16Array(2))], [0.5]);
    client.hostBytes = new Uint8Array([0x80, 0x3f, 0x00, 0xbf]); // 1 and -0.5
    expect(Array.from(await backend.toHost(half!))).toEqual([0x3f80, 0xbf00]);
  });

  it('releases an executable on the device when the program cache lets it go, and frees buffers', async () => {
    const client = new StandInClient();
    const backend = backendOver(client);
    const exe = await backend.compile(tpu.compile((x: Tensor) => x.neg()).lower(tpu.spec([4])).program);
    const input = backend.toDevice('float32', new Float32Array(4));
    const [out] = await backend.execute(exe, [input], []);
    expect(backend.memoryStats()).toEqual({ bytesInUse: 32, buffers: 2, executables: 1 });
    await backend.release(exe);
    expect(client.released).toEqual(['exe1']);
    backend.free(input);
    backend.free(out!);
    await new Promise(setImmediate); // the frees wait for the handles' promises
    expect(client.freed.sort()).toEqual(['buf1', 'out-of-1-args']);
    expect(backend.memoryStats()).toEqual({ bytesInUse: 0, buffers: 0, executables: 0 });
  });

  it('reads a device check\'s code after the outputs: 0 passes, else the launch fails with the check\'s text and frees its results', async () => {
    const lowered = tpu.compile((a: Tensor) => tpu.linalg.inv(a)).lower(tpu.spec([2, 2], 'float32'));
    expect(lowered.stablehlo).toMatch(/-> \(tensor<2x2xf32>, tensor<i32>\)/); // the inverse, then the check's code
    const client = new StandInClient();
    client.results = 2;
    const backend = backendOver(client);
    const exe = await backend.compile(lowered.program);
    const a = backend.toDevice('float32', new Float32Array([1, 2, 2, 4]));
    client.hostBytes = new Uint8Array(new Int32Array([0]).buffer);
    expect(await backend.execute(exe, [a], [])).toHaveLength(1);
    expect(client.freed).toEqual(['result1-out-of-1-args']);
    client.hostBytes = new Uint8Array(new Int32Array([2]).buffer); // pivot 2 of the only matrix
    await expect(backend.execute(exe, [a], [])).rejects.toThrow(/^linalg\.inv: The diagonal element 2 is zero, the inversion could not be completed because the input matrix is singular\.$/);
    expect(client.freed).toEqual(['result1-out-of-1-args', 'result1-out-of-1-args', 'out-of-1-args']);
  });
});
