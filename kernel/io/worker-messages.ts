// Messages between the main thread and the IO worker (heartbeat, control, iopub).
import type { InterruptWake } from '../language-session.js';
import type { ConnectionInfo } from '../wire/connection-file.js';
import type { Content } from '../wire/message.js';

export interface IoWorkerData {
  connection: ConnectionInfo;
  session: string;
  /** RunningRequest's buffer: which shell request runs on the main thread. */
  runningRequest: SharedArrayBuffer;
  /** own-work.ts's flag: the main thread is in the kernel's own finite work. */
  ownWork: SharedArrayBuffer;
}

export type ToWorker =
  /** Signed iopub messages to send in order, each as its frames (a Buffer arrives as a Uint8Array). */
  | { type: 'iopub'; messages: (Uint8Array | string)[][] }
  /** kernel_info_reply content, once the language session exists (control waits for it). */
  | { type: 'kernel-info'; content: Content }
  /** Close the worker's sockets and exit (after every queued iopub frame is sent). */
  | { type: 'close' }
  /** The session's blocking waits: interrupts also wake them. */
  | { type: 'interrupt-wake'; wake: InterruptWake };

export type FromWorker =
  | { type: 'ready' }
  /** A client subscribed to iopub (XPUB tells us): requests can be answered without losing output. */
  | { type: 'subscribed' }
  | { type: 'failed'; message: string }
  | { type: 'shutdown'; restart: boolean }
  /** interrupt_request arrived while shell request `request` (RunningRequest's id) ran. */
  | { type: 'interrupt'; request: number };
