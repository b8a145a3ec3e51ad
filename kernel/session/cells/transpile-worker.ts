// The transpile thread (transpile-thread.ts): compiles the pieces it is sent and
// answers with each piece's result, in order, then counts the answer in shared memory (a
// main thread waiting for it wakes).
import { workerData, type MessagePort } from 'node:worker_threads';
import { transpileCell, type CompileResult } from './compile-cell.js';

const { port, answered } = workerData as { port: MessagePort; answered: Int32Array };
port.on('message', (sources: string[]) => {
  const results: [string, CompileResult][] = [];
  for (const source of sources) {
    try {
      results.push([source, transpileCell(source)]);
    } catch {
      // The main thread compiles it again and reports the error there.
    }
  }
  port.postMessage(results);
  Atomics.add(answered, 0, 1);
  Atomics.notify(answered, 0);
});
