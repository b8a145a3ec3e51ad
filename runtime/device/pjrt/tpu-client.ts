// Running StableHLO on the TPU chips of this host through libtpu's PJRT client: devices,
// buffers to and from the device, compile-and-load, execute. Where there are no chips,
// openTpuClient() fails at once (~10 ms) with one line saying so.
import { libtpu } from './libtpu.js';
import { compileOptionsProto } from './compile-options.js';
import { PjrtError } from './errors.js';
import type { BufferHandle, ClientHandle, DeviceDescription, LoadedExecutableHandle, PjrtAddon } from './native-addon.js';

/** PJRT_Buffer_Type numbers of the session's dtypes. */
export const PJRT_BUFFER_TYPE = { bool: 1, int32: 4, int64: 5, float32: 11, bfloat16: 13 } as const;
export type PjrtDType = keyof typeof PJRT_BUFFER_TYPE;

/** The session cannot run on TPU chips here; the message is one line saying why. */
export class TpuUnavailableError extends Error {
  override readonly name = 'TpuUnavailableError';
}

export class TpuClient {
  constructor(
    private readonly addon: PjrtAddon,
    private readonly client: ClientHandle,
    readonly platformVersion: string,
    readonly devices: readonly DeviceDescription[],
  ) {}

  async compile(stablehlo: string, numPartitions = 1): Promise<LoadedExecutableHandle> {
    const deviceIds = this.devices.slice(0, numPartitions).map((d) => d.id);
    try {
      return await this.addon.compileAndLoad(this.client, stablehlo, 'mlir', compileOptionsProto({ deviceIds }));
    } catch (e) {
      throw PjrtError.from(e);
    }
  }

  async toDevice(deviceIndex: number, data: ArrayBufferView, dtype: PjrtDType, dims: number[]): Promise<BufferHandle> {
    try {
      return await this.addon.toDevice(this.client, deviceIndex, data, PJRT_BUFFER_TYPE[dtype], dims);
    } catch (e) {
      throw PjrtError.from(e);
    }
  }

  async toHost(buffer: BufferHandle): Promise<Uint8Array> {
    try {
      return await this.addon.toHost(buffer);
    } catch (e) {
      throw PjrtError.from(e);
    }
  }

  free(buffer: BufferHandle): void {
    this.addon.freeBuffer(buffer);
  }

  release(exe: LoadedExecutableHandle): void {
    this.addon.releaseExecutable(exe);
  }

  /** Runs on each device of the compile: argumentLists[device][argument]; resolves when done. */
  async execute(exe: LoadedExecutableHandle, argumentLists: BufferHandle[][]): Promise<BufferHandle[][]> {
    try {
      return await this.addon.execute(exe, argumentLists);
    } catch (e) {
      throw PjrtError.from(e);
    }
  }
}

let opening: Promise<TpuClient> | undefined;

async function open(): Promise<TpuClient> {
  let lib;
  try {
    lib = await libtpu();
  } catch (e) {
    throw new TpuUnavailableError(`no TPU: ${(e as Error).message}`);
  }
  try {
    const client = await lib.addon.createClient(lib.plugin, {});
    const info = lib.addon.clientInfo(client);
    return new TpuClient(lib.addon, client, info.platformVersion, info.devices);
  } catch (e) {
    const err = PjrtError.from(e);
    const first = err.message.split('\n')[0];
    throw new TpuUnavailableError(`no TPU chips on this machine: libtpu's PJRT client says ${first}`);
  }
}

/** This host's TPU chips (the client is created once per process). */
export function openTpuClient(): Promise<TpuClient> {
  opening ??= open();
  return opening;
}

