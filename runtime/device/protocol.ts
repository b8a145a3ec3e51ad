// Messages between the host (main thread) and the device thread. Commands travel in
// batches (one postMessage per batch: per-message cost dominates tiny ops).
import type { DType, StorageArray } from '../dtype.js';
import type { Program } from '../compiler/program.js';
import type { MessagePort } from 'node:worker_threads';

export type Command =
  | { t: 'compile'; program: number; ir: Program }
  | { t: 'exec'; program: number; launch: number; ins: number[]; outs: number[]; scalars: number[]; reply?: number; check?: boolean }
  | { t: 'upload'; buffer: number; dtype: DType; data: StorageArray }
  | { t: 'download'; buffer: number; reply: number }
  | { t: 'free'; buffer: number }
  | { t: 'fence'; reply: number }
  | { t: 'profile'; on: boolean };

export type HostMessage =
  | { t: 'batch'; commands: Command[] }
  /** Drops queued executions that have not started; their outputs become "cancelled". */
  | { t: 'cancel' };

export type DeviceMessage =
  | { t: 'reply'; reply: number; data?: StorageArray; nonFinite?: number[]; error?: string }
  /** Progress: every launch ≤ upTo has finished; timings only while profiling. */
  | { t: 'progress'; upTo: number; timings?: number[]; compiles?: number[]; errors?: DeviceError[] };

export interface DeviceError {
  readonly launch: number;
  readonly message: string;
}

export interface DeviceThreadData {
  readonly threads: number;
  readonly signal: SharedArrayBuffer;
  readonly port: MessagePort;
}
