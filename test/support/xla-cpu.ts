// One test-only Python process (xla_cpu_run.py) that runs StableHLO text on XLA:CPU through
// jaxlib: many programs per process, requests answered in order.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { ElementType } from '../../runtime/device/stablehlo/index.js';

export interface XlaArray {
  readonly type: ElementType;
  readonly shape: readonly number[];
  /** f32: Float32Array, bf16: Uint16Array (bit patterns), i32: Int32Array, i64: BigInt64Array, i1: Uint8Array. */
  readonly data: Float32Array | Uint16Array | Int32Array | BigInt64Array | Uint8Array;
}

const ARRAY = { f32: Float32Array, bf16: Uint16Array, i32: Int32Array, i64: BigInt64Array, i1: Uint8Array } as const;
const script = fileURLToPath(new URL('./xla_cpu_run.py', import.meta.url));

export class XlaCpu {
  private readonly waiting: ((line: string) => void)[] = [];
  private stderr = '';

  private constructor(private readonly child: ChildProcessWithoutNullStreams) {
    createInterface({ input: child.stdout }).on('line', (line) => this.waiting.shift()?.(line));
    child.stderr.on('data', (d: Buffer) => (this.stderr = (this.stderr + d.toString()).slice(-4000)));
    child.on('exit', (code) => {
      for (const w of this.waiting.splice(0)) w(JSON.stringify({ error: `xla_cpu_run.py exited (${code}): ${this.stderr}` }));
    });
  }

  static start(): XlaCpu {
    return new XlaCpu(spawn('python3', [script], { stdio: ['pipe', 'pipe', 'pipe'] }));
  }

  run(text: string, args: readonly XlaArray[]): Promise<XlaArray[]> {
    const request = {
      text,
      args: args.map((a) => ({ type: a.type, shape: a.shape, data: Buffer.from(a.data.buffer, a.data.byteOffset, a.data.byteLength).toString('base64') })),
    };
    return new Promise((resolve, reject) => {
      this.waiting.push((line) => {
        const answer = JSON.parse(line) as { outputs?: { type: ElementType; shape: number[]; data: string }[]; error?: string };
        if (answer.error !== undefined) return reject(new Error(answer.error));
        resolve(answer.outputs!.map((o) => {
          const bytes = Buffer.from(o.data, 'base64');
          const copy = new Uint8Array(bytes).buffer;
          return { type: o.type, shape: o.shape, data: new ARRAY[o.type](copy) };
        }));
      });
      this.child.stdin.write(`${JSON.stringify(request)}\n`);
    });
  }

  close(): void {
    this.child.stdin.end();
  }
}
