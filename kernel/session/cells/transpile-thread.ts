// Transpiling a cell (ts.transpileModule: a program and a type checker of its
// own, a large part of a type-checked cell's time) on a second thread, while
// the main thread builds the language service's program for the operator
// rewrite and the type check. The main thread never waits for it: before it
// compiles, it takes the answers that have arrived (receiveMessageOnPort, no
// event loop turn) into the compile cache; a piece not answered yet, or one the
// rewrite changed, is compiled on the main thread as before. Once the thread has answered
// (TypeScript loaded there), the main thread may sleep a bounded time for the answer to a cell
// it is about to compile: sleeping costs less than compiling again, and on a busy machine it
// leaves the core to the thread that is compiling.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import { rememberCompile, type CompileResult } from './compile-cell.js';

export class TranspileThread {
  /** Requests sent; answers arrived (the worker counts them in `answered[0]`, then wakes waiters). */
  private sent = 0;
  private failed = false;

  private constructor(private readonly worker: Worker, private readonly port: MessagePort, private readonly answered: Int32Array) {
    // A failed thread only means compiling on the main thread, without waiting for it.
    worker.on('error', () => (this.failed = true));
  }

  /** The thread, or undefined where there is no built worker script (cells run from TypeScript sources, as in tests). */
  static start(): TranspileThread | undefined {
    const script = new URL('./transpile-worker.js', import.meta.url);
    if (!existsSync(fileURLToPath(script))) return undefined;
    const { port1, port2 } = new MessageChannel();
    const answered = new Int32Array(new SharedArrayBuffer(4));
    const worker = new Worker(script, { workerData: { port: port2, answered }, transferList: [port2] });
    worker.unref(); // never keeps the kernel alive
    return new TranspileThread(worker, port1, answered);
  }

  /** Starts compiling pieces the main thread will probably compile soon. */
  prefetch(sources: string[]): void {
    if (sources.length) this.port.postMessage(sources), this.sent++;
  }

  /**
   * Puts the answers that have arrived into the compile cache; returns how many. With `waitMs`,
   * first sleeps up to that long for the answers still out, once the thread has answered before
   * (the first answer waits for the thread to load TypeScript: the main thread never waits for that).
   */
  takeAnswers(waitMs = 0): number {
    for (let answered = Atomics.load(this.answered, 0), end = performance.now() + waitMs; !this.failed && answered > 0 && answered < this.sent; answered = Atomics.load(this.answered, 0)) {
      const left = end - performance.now();
      if (left <= 0 || Atomics.wait(this.answered, 0, answered, left) === 'timed-out') break;
    }
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
