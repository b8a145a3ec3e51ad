// The session's backend on this host's TPU chips: programs lowered to StableHLO, compiled
// and run by libtpu's PJRT client. Buffers live on the first chip. An upload arrives flat
// (the Backend surface has no shape), so it stays on the host until the first program that
// reads it says its shape: one transfer, with the right dims.
import { allocStorage, ITEMSIZE, toStorage, type DType, type StorageArray } from '../../dtype.js';
import { valueOf, type Program } from '../../program/program.js';
import type { Backend, BackendBuffer, BackendMemoryStats } from '../backend.js';
import { lowerToStableHlo } from '../stablehlo/index.js';
import type { TensorType } from '../stablehlo/index.js';
import type { BufferHandle, LoadedExecutableHandle } from './native-addon.js';
import { openTpuClient, type TpuClient } from './tpu-client.js';
import { checkFailureText, type DeviceCheck } from '../device-check.js';

export interface TpuBuffer extends BackendBuffer {
  /** On the chip with these dims, or still on the host (an upload not yet read). */
  handle?: Promise<BufferHandle>;
  dims?: readonly number[];
  host?: StorageArray;
}

interface TpuExecutable {
  readonly exe: LoadedExecutableHandle;
  readonly parameters: readonly TensorType[];
  readonly program: Program;
  /** Its device checks: their codes are the results after the program's outputs. */
  readonly checks: readonly DeviceCheck[];
}

const DEVICE = 0;

export class TpuBackend implements Backend<TpuExecutable, TpuBuffer> {
  readonly name = 'tpu';
  private bytesInUse = 0;
  private buffers = 0;
  private executables = 0;

  private constructor(private readonly client: TpuClient) {}

  /** Fails with openTpuClient's one line where this host has no TPU chips. */
  static async open(): Promise<TpuBackend> {
    return new TpuBackend(await openTpuClient());
  }

  async compile(program: Program): Promise<TpuExecutable> {
    const module = lowerToStableHlo(program);
    const exe = await this.client.compile(module.text);
    this.executables++;
    return { exe, parameters: module.parameters, program, checks: module.checks };
  }

  async release(exe: TpuExecutable): Promise<void> {
    this.client.release(exe.exe);
    this.executables--;
  }

  async execute(exe: TpuExecutable, inputs: readonly TpuBuffer[], scalars: readonly number[]): Promise<TpuBuffer[]> {
    const args: BufferHandle[] = [];
    for (let i = 0; i < inputs.length; i++) args.push(await this.onChip(inputs[i]!, exe.program.inputs[i]!.shape));
    for (let i = 0; i < scalars.length; i++) {
      const dtype = exe.program.scalars[i]!;
      args.push(await this.client.toDevice(DEVICE, toStorage(dtype, [scalars[i]!]), dtype, []));
    }
    let outs: BufferHandle[];
    try {
      [outs] = (await this.client.execute(exe.exe, [args])) as [BufferHandle[]];
    } finally {
      for (let i = inputs.length; i < args.length; i++) this.client.free(args[i]!); // the scalars, also when it failed
    }
    if (exe.checks.length) await this.failFailedChecks(exe, outs);
    return outs.map((h, i) => {
      const v = valueOf(exe.program, exe.program.outputs[i]!);
      return this.track({ dtype: v.dtype, length: v.shape.reduce((a, b) => a * b, 1), handle: Promise.resolve(h), dims: v.shape });
    });
  }

  /**
   * Reads the checks' codes (the results after the outputs, taken off `outs`): one that is not
   * 0 fails the launch with its text, the outputs freed. A read per run of such a program, on
   * the device thread (the host does not wait for it).
   */
  private async failFailedChecks(exe: TpuExecutable, outs: BufferHandle[]): Promise<void> {
    const codes = outs.splice(exe.program.outputs.length);
    const values = await Promise.all(codes.map(async (h) => {
      const bytes = await this.client.toHost(h);
      this.client.free(h);
      return new DataView(bytes.buffer, bytes.byteOffset, 4).getInt32(0, true);
    }));
    const failed = values.findIndex((c) => c !== 0);
    if (failed < 0) return;
    for (const h of outs) this.client.free(h);
    throw new Error(checkFailureText(exe.checks[failed]!, values[failed]!));
  }

  toDevice(dtype: DType, data: StorageArray): TpuBuffer {
    return this.track({ dtype, length: data.length, host: data });
  }

  async toHost(buffer: TpuBuffer): Promise<StorageArray> {
    if (buffer.host) return buffer.host;
    const bytes = await this.client.toHost(await buffer.handle!);
    const out = allocStorage(buffer.dtype, buffer.length);
    if (bytes.byteLength !== out.byteLength) {
      throw new Error(`tpu backend: the chip returned ${bytes.byteLength} bytes for ${buffer.length} ${buffer.dtype} values; expected ${out.byteLength}`);
    }
    // A copy into storage of the dtype: bf16 as its 16-bit patterns, bool as one byte (0 or 1) each.
    new Uint8Array(out.buffer, out.byteOffset, out.byteLength).set(bytes);
    return out;
  }

  free(buffer: TpuBuffer): void {
    buffer.handle?.then((h) => this.client.free(h), () => {});
    this.bytesInUse -= buffer.length * ITEMSIZE[buffer.dtype];
    this.buffers--;
  }

  memoryStats(): BackendMemoryStats {
    return { bytesInUse: this.bytesInUse, buffers: this.buffers, executables: this.executables };
  }

  private track(b: TpuBuffer): TpuBuffer {
    this.bytesInUse += b.length * ITEMSIZE[b.dtype];
    this.buffers++;
    return b;
  }

  /** The buffer on the chip with the dims a program reads it with (a reshape goes through the host). */
  private async onChip(b: TpuBuffer, shape: readonly number[]): Promise<BufferHandle> {
    if (b.handle && sameDims(b.dims!, shape)) return b.handle;
    const data = await this.toHost(b);
    const old = b.handle;
    b.handle = this.client.toDevice(DEVICE, data, b.dtype, [...shape]);
    b.dims = shape;
    b.host = undefined;
    old?.then((h) => this.client.free(h), () => {});
    return b.handle;
  }
}

function sameDims(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((d, i) => d === b[i]);
}

