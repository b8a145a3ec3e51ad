// The IO worker's entry: it binds heartbeat, control and iopub before it loads anything else
// (io-serve.ts). A client connects as it starts the kernel, is refused, and ZeroMQ retries
// every 100-200 ms: a port bound before the first retry saves the client a whole interval.
import { parentPort, workerData } from 'node:worker_threads';
import { endpoint } from '../wire/connection-file.js';
import { SOCKET_LINGER_MS } from '../wire/linger.js';
import { loadZeromq } from '../wire/zeromq.js';
import type { FromWorker, IoWorkerData } from './worker-messages.js';

const { connection } = workerData as IoWorkerData;
const zmq = loadZeromq();
const heartbeat = new zmq.Reply({ linger: SOCKET_LINGER_MS });
const control = new zmq.Router({ linger: SOCKET_LINGER_MS });
// Every subscription, also a repeated one, is seen: each subscriber gets its iopub_welcome.
const iopub = new zmq.XPublisher({ verbosity: 'allSubs', linger: SOCKET_LINGER_MS });

try {
  await Promise.all([heartbeat.bind(endpoint(connection, 'hb')), control.bind(endpoint(connection, 'control')), iopub.bind(endpoint(connection, 'iopub'))]);
} catch (e) {
  // Close before reporting: a process that exits while this thread's sockets are
  // open aborts inside zeromq's addon instead of printing the error.
  for (const socket of [heartbeat, control, iopub]) socket.close();
  parentPort!.postMessage({ type: 'failed', message: `binding heartbeat/control/iopub failed: ${(e as Error).message}` } satisfies FromWorker);
}
if (!heartbeat.closed) (await import('./io-serve.js')).serveIo({ heartbeat, control, iopub });
