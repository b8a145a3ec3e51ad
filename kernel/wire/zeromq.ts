// ZeroMQ, required rather than imported: the package is CommonJS, and an ESM import of it first
// runs Node's CommonJS export lexer over its sources (4-5 ms of each thread that loads it, on the
// way to binding the kernel's sockets).
import { createRequire } from 'node:module';
import type * as Zmq from 'zeromq';

export function loadZeromq(): typeof Zmq {
  return createRequire(import.meta.url)('zeromq') as typeof Zmq;
}
