// Transpiling a cell (ts.transpileModule: a program and a type checker of its
// own, a large part of a type-checked cell's time) on a second thread, while
// the main thread builds the language service's program for the operator
// rewrite and the type check. The main thread never waits for it: before it
// compiles, it takes the answers that have arrived (receiveMessageOnPort, no
// event loop turn) into the compile cache; a piece not answered yet, or one the
// rewrite changed, is compiled on the main thread as before.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { rememberCompile, type CompileResult } from './compile-cell.js';

export class TranspileThread {
  private constructor(private readonly worker: Worker, private readonly port: MessagePort) {}

  /** The thread, or undefined where there is no built worker script (cells run from TypeScript sources, as in tests). */
  static start(): TranspileThread | undefined {
    const script = new URL('./transpile-worker.js', import.meta.url);
    if (!existsSync(fileURLToPath(script))) return undefined;
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(script, { workerData: { port: port2 }, transferList: [port2] });
    worker.unref(); // never keeps the kernel alive
    worker.on('error', () => undefined); // a failed thread only means compiling on the main thread
    return new TranspileThread(worker, port1);
  }

  /** Starts compiling pieces the main thread will probably compile soon. */
  prefetch(sources: string[]): void {
    if (sources.length) this.port.postMessage(sources);
  }

  /** Puts the answers that have arrived into the compile cache; returns how many. */
  takeAnswers(): number {
    let taken = 0;
    for (let message = receiveMessageOnPort(this.port); message; message = receiveMessageOnPort(this.port)) {
      for (const [source, result] of message.message as [string, CompileResult][]) rememberCompile(source, result), taken++;
    }
    return taken;
  }

  stop(): void {
    this.port.close();
    void this.worker.terminate();
  }
}
